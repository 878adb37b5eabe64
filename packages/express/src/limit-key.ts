import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { ResolvedUser } from './options.js';

/** The two per-user limits, each counted under its own keys. */
export type LimitName = 'mint' | 'catalogue';

/**
 * The key a request counts under: the prefix (the `limit.prefix` option, else `form-embed:` and
 * the mount path, lower-cased), the limit's name, then who asks. A signed-in user is the `resolveUser`
 * answer with the tenant id and identifier lower-cased, since Microsoft and Google compare them
 * without case (`Alice@Example.com` is `alice@example.com`); the user sent upstream keeps its
 * case. Signed out, the client address (`req.ip`, an IPv6 address by its /56 network).
 */
export function limitKey(
  req: Request,
  prefix: string | undefined,
  name: LimitName,
  user: ResolvedUser,
): string {
  // Express matches a mount path without case: as sent, `/Form-Sessions` would be a fresh key.
  const start = prefix ?? `form-embed:${req.baseUrl.toLowerCase()}:`;
  if (user === undefined) return `${start}${name}:ip:${ipKeyGenerator(req.ip ?? '')}`;
  const who = JSON.stringify([
    user.clientId ?? '',
    user.microsoftTenantId?.toLowerCase() ?? '',
    user.userIdentifier?.toLowerCase() ?? '',
  ]);
  return `${start}${name}:user:${who}`;
}
