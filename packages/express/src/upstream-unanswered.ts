// What a request to the service that got no answer is: a refused redirect, a timeout, a network or
// certificate failure. Each is logged once a minute per endpoint, and answered as a SessionError.
import { recordUpstream } from './metrics.js';
import { isFormSessionRoute } from './options.js';
import { sessionError } from './session-error-response.js';
import type { UpstreamConfig, UpstreamRequest } from './upstream-request.js';

/**
 * Whether `error` is fetch refusing a redirect (`redirect: 'error'`): Node's fetch says so in its
 * cause. Another `fetch` option's refusal reads as a network failure, `unavailable`.
 */
export function isRefusedRedirect(error: unknown): boolean {
  return (
    (error as { cause?: { message?: unknown } } | undefined)?.cause?.message ===
    'unexpected redirect'
  );
}

/**
 * A redirect, which the same request meets again: the portal's configuration, not an outage. On
 * a form-session endpoint `invalid_request` (not retried), on a read `internal_error` (the
 * browser's request is not what was refused). Where it pointed is not known: fetch refused it
 * unread.
 */
export function redirected(
  config: UpstreamConfig,
  { method, route }: UpstreamRequest,
  startedAt: number,
) {
  recordUpstream(route, method, startedAt, 'redirect');
  config.logger.error(
    `the service answered ${method} ${route} with a redirect, which the middleware does not follow (it would carry the API key): set baseUrl to the service's own address, https where it is served so, and check paths.${route}`,
    { request: endpointOf(config, { method, route }) },
  );
  return sessionError(
    isFormSessionRoute(route) ? 'invalid_request' : 'internal_error',
    'The service redirected the request, which the portal does not follow.',
  );
}

/**
 * A timeout or a network failure: `unavailable`, logged without the request (it holds the key)
 * and with the endpoint's path as configured, not its form id or client id: an outage is then one
 * line a minute per endpoint, not one per form (repeated-lines.ts).
 */
export function unavailable(
  config: UpstreamConfig,
  { method, route }: UpstreamRequest,
  startedAt: number,
  error: unknown,
) {
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  recordUpstream(route, method, startedAt, timedOut ? 'timeout' : 'network');
  const since = config.outages.failed(route);
  config.logger.warn(
    timedOut
      ? `the service did not answer ${method} ${route} within timeoutMs (${config.timeoutMs} ms)`
      : refusedCertificate(error)
        ? `the service's TLS certificate was refused for ${method} ${route}: ${CERTIFICATE_ADVICE}`
        : `the service could not be reached for ${method} ${route}`,
    { request: endpointOf(config, { method, route }), reason: describeCause(error), since },
  );
  return sessionError(
    'unavailable',
    timedOut
      ? `The service did not answer within ${config.timeoutMs} ms.`
      : 'The service could not be reached.',
  );
}

const CERTIFICATE_ADVICE =
  "the reason names why: one this Node does not trust (a private CA, or a proxy that inspects TLS: give Node that CA's certificate with NODE_EXTRA_CA_CERTS), an expired one, or one for another name";

/** Whether fetch failed on the service's certificate (Node's codes: DEPTH_ZERO_SELF_SIGNED_CERT…). */
function refusedCertificate(error: unknown): boolean {
  const code = error instanceof Error ? codeOf(error.cause) : undefined;
  return code !== undefined && /CERT|UNABLE_TO_(VERIFY|GET_ISSUER)/.test(code);
}

/** Names a fetch failure without its request (which holds the Authorization header). */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown failure';
  const code = codeOf(error.cause);
  if (code !== undefined) return `${error.name}: ${code}`;
  // fetch's own refusals (a port it will not use, say) have a message and no code.
  const { cause } = error;
  return cause instanceof Error
    ? `${error.name}: ${error.message} (${cause.message})`
    : `${error.name}: ${error.message}`;
}

/** The system error code (ECONNREFUSED) of a cause, or of the first of several (`localhost` on IPv4 and IPv6). */
function codeOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  if ('code' in cause && cause.code !== undefined) return String(cause.code);
  const errors = (cause as { errors?: unknown }).errors;
  return Array.isArray(errors) ? codeOf(errors[0]) : undefined;
}

/** The endpoint of `request` as configured: its path unfilled. */
export function endpointOf(
  config: UpstreamConfig,
  { method, route }: Pick<UpstreamRequest, 'method' | 'route'>,
) {
  return `${method} ${config.baseUrl}${config.paths[route]}`;
}
