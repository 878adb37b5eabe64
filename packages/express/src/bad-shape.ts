import type { Logger } from './logger.js';
import type { UpstreamPaths } from './options.js';
import { type SessionErrorResponse, sessionError } from './session-error-response.js';
import { tooLarge, type UpstreamAnswer, unreadable } from './upstream-request.js';

/**
 * An answer that is not what the contract documents (not JSON, too large, broken off, fields
 * missing). Each line names the endpoint as configured and puts the request, whose form id is the
 * browser's, in its details: one line a minute per endpoint, not one per form (repeated-lines.ts).
 */
export function badShape(
  logger: Logger,
  route: keyof UpstreamPaths,
  answer: UpstreamAnswer,
): SessionErrorResponse {
  if (answer.body === tooLarge) {
    logger.error(
      `the service's answer to ${answer.endpoint} (paths.${route}, status ${answer.status}) was longer than maxUpstreamBodyBytes and was cut off`,
      { request: answer.request },
    );
  } else if (answer.status >= 500) {
    // An error page of the service or of a gateway in front of it: the service failed, as a
    // 502 does, and nothing in the portal's settings would change it.
    logger.warn(
      `the service failed (status ${answer.status}) on ${route}, answering no SessionError (an error page of the service or of a gateway in front of it): the browser retries; if it lasts, check the service's status`,
    );
  } else if (answer.body === unreadable) {
    logger.error(
      `the service's answer to ${answer.endpoint} (paths.${route}, status ${answer.status}) broke off before its end (a body not in the Content-Encoding it names, or a connection cut): check any gateway or proxy between the portal and the service`,
      { request: answer.request },
    );
  } else {
    logger.error(
      `the service's answer to ${answer.endpoint} (paths.${route}, status ${answer.status}) is not in the documented shape; check baseUrl (without /api/v1) and paths.${route}`,
      { request: answer.request },
    );
  }
  return sessionError(
    'internal_error',
    `The service's answer (status ${answer.status}) was not in the documented shape.`,
  );
}
