import { type FormSessionUser, FormSessionUserSchema } from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { escapedInvisible, type Logger } from './logger.js';
import type { FormEmbedSessionsConfig, ResolvedUser } from './options.js';
import { CallbackTimeout } from './portal-callback.js';
import { sessionError } from './session-error-response.js';

const resolvedUser = Symbol('form-embed resolved user');

/**
 * Asks `resolveUser` who is signed in and keeps the answer for this request. The answer is the
 * only source of the user sent upstream; whatever the browser sent is never read for it.
 */
export function userResolver(
  resolveUser: FormEmbedSessionsConfig['resolveUser'],
  logger: Logger,
): (req: Request, res: Response) => Promise<ResolvedUser> {
  return async function resolveUserFor(req, res) {
    let user: unknown;
    try {
      user = await resolveUser(req);
    } catch (error) {
      if (error instanceof CallbackTimeout) logger.error(error.message);
      else logger.error('resolveUser threw', { error });
      throw sessionError('internal_error', 'The portal could not tell who is signed in.');
    }
    const resolved = user === undefined || user === null ? undefined : checkedUser(user, logger);
    (res.locals as Record<symbol, ResolvedUser>)[resolvedUser] = resolved;
    return resolved;
  };
}

/** `userResolver` as a middleware (for `GET /forms`). */
export function resolveUserOnServer(
  resolveUser: FormEmbedSessionsConfig['resolveUser'],
  logger: Logger,
): RequestHandler {
  const resolve = userResolver(resolveUser, logger);
  return async function resolveUserOnServer(req: Request, res: Response, next: NextFunction) {
    await resolve(req, res);
    next();
  };
}

/**
 * The user as FormSessionRequest types it, its values trimmed, without any other field, nor one
 * that is blank (the contract does not say the service reads an empty field as absent; the sandbox
 * does, which would hide the difference); undefined when it names nobody. A user with no field set
 * names nobody: `{clientId: session?.clientId}` when nobody is signed in is the usual way to write
 * it (taken as signed in, it would pass `sign_in_required`, and every such visitor would share one
 * limit count). An object that sets none of the fields but has others (`{tenantId, upn}`, the
 * portal's own shape) is a mistake, not a signed-out visitor: it is refused, its keys named in the
 * log.
 */
function checkedUser(user: unknown, logger: Logger): FormSessionUser | undefined {
  const parsed = parsedUser(user, logger);
  if (parsed?.success === false) {
    logger.error(
      'resolveUser returned something that is not a FormSessionRequest user ({microsoftTenantId?, clientId?, userIdentifier?} of strings)',
    );
  } else if (parsed?.success) {
    // Spaces around a value are a portal's stray whitespace, which the service would refuse.
    const named = Object.entries(parsed.data)
      .map(([name, field]) => [name, field?.trim()] as const)
      .filter(([, field]) => field);
    warnOfMisspeltFields(user as object, logger);
    if (named.length > 0) return Object.fromEntries(named);
    const others = Object.keys(user as object).filter(
      (key) => !Object.hasOwn(FormSessionUserSchema.shape, key),
    );
    if (others.length === 0) return undefined;
    logger.error(
      `resolveUser returned an object that sets none of microsoftTenantId, clientId and userIdentifier but has ${others.slice(0, 10).map(escapedInvisible).join(', ')}: return the FormSessionRequest user, or undefined (or null) when nobody is signed in`,
    );
  }
  throw sessionError('internal_error', 'The portal could not tell who is signed in.');
}

/**
 * A key one letter or a letter's case away from a field (`userIdentifer`, `clientID`) is dropped
 * as any other the user has, silently: beside a valid field, the user then went upstream without
 * it (their identity lost, every user of the client sharing one limit count). Warned of.
 */
function warnOfMisspeltFields(user: object, logger: Logger) {
  const fields = Object.keys(FormSessionUserSchema.shape);
  // The first 20 keys: a portal that returns its whole session object is not walked through.
  for (const key of Object.keys(user).slice(0, 20)) {
    if (fields.includes(key)) continue;
    const meant = fields.find((field) => oneEditApart(key.toLowerCase(), field.toLowerCase()));
    if (meant === undefined) continue;
    logger.warn(
      `resolveUser returned a user with ${escapedInvisible(key)}, which is not sent (FormSessionRequest's user has microsoftTenantId, clientId and userIdentifier): did you mean ${meant}?`,
    );
  }
}

/** Whether `a` and `b` are equal, or one insertion, deletion, change or swap of neighbours apart. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1) return false;
  let same = 0;
  while (same < a.length && a[same] === b[same]) same++;
  const [restA, restB] = [a.slice(same), b.slice(same)];
  return (
    restA === restB ||
    restA.slice(1) === restB.slice(1) ||
    restA.slice(1) === restB ||
    restA === restB.slice(1) ||
    (restA[0] === restB[1] && restA[1] === restB[0] && restA.slice(2) === restB.slice(2))
  );
}

/** `user` read as FormSessionRequest's user; undefined, logged, when reading a field threw. */
function parsedUser(user: unknown, logger: Logger) {
  try {
    return FormSessionUserSchema.safeParse(user);
  } catch (error) {
    logger.error("reading the user resolveUser returned threw (a getter of the portal's)", {
      error,
    });
    return undefined;
  }
}

/** The user `resolveUser` returned for this request, once `userResolver` asked it. */
export function resolvedUserOf(res: Response): ResolvedUser {
  return (res.locals as Record<symbol, ResolvedUser>)[resolvedUser];
}
