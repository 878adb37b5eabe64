import type { FormTarget } from '@form-embed/protocol';
import type { Request } from 'express';
import { escapedInvisible, type Logger } from './logger.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { CallbackTimeout } from './portal-callback.js';
import { sessionError } from './session-error-response.js';

/**
 * Asks the portal's `authorize` veto about `target`. Only `true` allows: a veto that forgets
 * to answer refuses. A veto that throws, or does not settle within `timeoutMs` (`bounded`), is
 * an `internal_error` (logged), never an allow.
 */
export async function isAuthorized(
  authorize: FormEmbedSessionsConfig['authorize'],
  req: Request,
  target: FormTarget,
  logger: Logger,
): Promise<boolean> {
  try {
    return (await authorize(req, target)) === true;
  } catch (error) {
    const details = { target: describeTarget(target) };
    if (error instanceof CallbackTimeout) logger.error(error.message, details);
    else logger.error('authorize threw', { error, ...details });
    throw sessionError(
      'internal_error',
      'The portal could not decide whether this form is allowed.',
    );
  }
}

/** The form, for a log line or a message: its id is the browser's, invisible characters escaped. */
export function describeTarget(target: FormTarget): string {
  return escapedInvisible(
    target.kind === 'form' ? `form ${target.formId}` : `Core form ${target.slug}`,
  );
}
