import { FormSessionUserSchema } from '@form-embed/protocol';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig, ResolvedUser } from './options.js';
import { sessionError } from './session-error-response.js';

const resolvedUser = Symbol('form-embed resolved user');

/**
 * Asks `resolveUser` who is signed in and keeps the answer for this request. The answer is the
 * only source of the user sent upstream; whatever the browser sent is never read for it.
 */
export function resolveUserOnServer(
  resolveUser: FormEmbedSessionsConfig['resolveUser'],
  logger: Logger,
) {
  return async function resolveUserOnServer(
    req: Request,
    res: Response,
    next: NextFunction,
  ): Promise<void> {
    let user: unknown;
    try {
      user = await resolveUser(req);
    } catch (error) {
      logger.error('resolveUser threw', { error });
      throw sessionError('internal_error', 'The portal could not tell who is signed in.');
    }
    if (user === undefined || user === null) {
      (res.locals as Record<symbol, ResolvedUser>)[resolvedUser] = undefined;
      return next();
    }
    const parsed = FormSessionUserSchema.safeParse(user);
    if (!parsed.success) {
      logger.error(
        'resolveUser returned something that is not a FormSessionRequest user ({microsoftTenantId?, clientId?, userIdentifier?} of strings)',
      );
      throw sessionError('internal_error', 'The portal could not tell who is signed in.');
    }
    (res.locals as Record<symbol, ResolvedUser>)[resolvedUser] = parsed.data;
    next();
  };
}

/** The user `resolveUser` returned for this request (after `resolveUserOnServer` ran). */
export function resolvedUserOf(res: Response): ResolvedUser {
  return (res.locals as Record<symbol, ResolvedUser>)[resolvedUser];
}
