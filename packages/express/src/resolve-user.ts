import { type FormSessionUser, FormSessionUserSchema } from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig, ResolvedUser } from './options.js';
import { CallbackTimeout, settleWithin } from './portal-callback.js';
import { sessionError } from './session-error-response.js';

const resolvedUser = Symbol('form-embed resolved user');

/**
 * Asks `resolveUser` who is signed in and keeps the answer for this request. The answer is the
 * only source of the user sent upstream; whatever the browser sent is never read for it.
 */
export function userResolver(
  resolveUser: FormEmbedSessionsConfig['resolveUser'],
  logger: Logger,
  timeoutMs: number,
): (req: Request, res: Response) => Promise<ResolvedUser> {
  return async function resolveUserFor(req, res) {
    let user: unknown;
    try {
      user = await settleWithin(() => resolveUser(req), timeoutMs);
    } catch (error) {
      if (error instanceof CallbackTimeout) {
        logger.error(`resolveUser did not answer within timeoutMs (${timeoutMs} ms)`);
      } else logger.error('resolveUser threw', { error });
      throw sessionError('internal_error', 'The portal could not tell who is signed in.');
    }
    const resolved =
      user === undefined || user === null ? undefined : signedIn(checkedUser(user, logger));
    (res.locals as Record<symbol, ResolvedUser>)[resolvedUser] = resolved;
    return resolved;
  };
}

/** `userResolver` as a middleware (for `GET /forms`). */
export function resolveUserOnServer(
  resolveUser: FormEmbedSessionsConfig['resolveUser'],
  logger: Logger,
  timeoutMs: number,
): RequestHandler {
  const resolve = userResolver(resolveUser, logger, timeoutMs);
  return async function resolveUserOnServer(req: Request, res: Response, next: NextFunction) {
    await resolve(req, res);
    next();
  };
}

/** The user as FormSessionRequest types it, without any other field. */
function checkedUser(user: unknown, logger: Logger): FormSessionUser {
  const parsed = FormSessionUserSchema.safeParse(user);
  if (parsed.success) return parsed.data;
  logger.error(
    'resolveUser returned something that is not a FormSessionRequest user ({microsoftTenantId?, clientId?, userIdentifier?} of strings)',
  );
  throw sessionError('internal_error', 'The portal could not tell who is signed in.');
}

/**
 * A user with no field set names nobody: `{clientId: session?.clientId}` when nobody is signed in
 * is the usual way to write it. Taken as signed in, it would pass `sign_in_required`, and every
 * such visitor would share one limit count.
 */
function signedIn(user: FormSessionUser): FormSessionUser | undefined {
  return Object.values(user).some((field) => field !== undefined && field !== '')
    ? user
    : undefined;
}

/** The user `resolveUser` returned for this request (after `resolveUserOnServer` ran). */
export function resolvedUserOf(res: Response): ResolvedUser {
  return (res.locals as Record<symbol, ResolvedUser>)[resolvedUser];
}
