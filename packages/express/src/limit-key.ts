import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Request } from 'express';
import { ipKeyGenerator } from 'express-rate-limit';
import type { Logger } from './logger.js';
import type { ResolvedUser } from './options.js';

/**
 * The limits, each counted under its own keys: per user (or client address) `mint` and
 * `catalogue`, and `signedOutMint`, one count for every signed-out mint that goes upstream.
 */
export type LimitName = 'mint' | 'catalogue' | 'signedOutMint';

/**
 * The default prefix of the limit keys: `form-embed:` and the mount path, lower-cased, since
 * Express matches a mount path without case (as sent, `/Form-Sessions` would be a fresh key).
 * A router cannot see the pattern it is mounted at, only the path it matched: mounted at
 * `/t/:org/form-sessions`, each `:org` would count a user afresh. So the prefix is the first
 * mount path the router served, and another one is logged once, asking for `limit.prefix`.
 */
export function mountPathPrefix(logger: Logger): (req: Request) => string {
  let first: string | undefined;
  let told = false;
  return (req) => {
    const mountPath = req.baseUrl.toLowerCase();
    first ??= mountPath;
    if (mountPath !== first && !told) {
      told = true;
      logger.error(
        `formEmbedSessions served two mount paths (${first} and ${mountPath}): a mount path with parameters needs the limit.prefix option; until then every request counts under the first`,
      );
    }
    return `form-embed:${first}:`;
  };
}

/**
 * The key a request counts under: the prefix (the `limit.prefix` option, else `mountPathPrefix`),
 * the limit's name, then who asks. A signed-in user is the `resolveUser` answer with the tenant
 * id and identifier lower-cased (A to Z), since Microsoft and Google compare them without case
 * (`Alice@Example.com` is `alice@example.com`); the user sent upstream keeps its case. Signed
 * out, the client address (`req.ip`, an IPv6 address by its /56 network); for `signedOutMint`,
 * everyone.
 */
export function limitKey(
  req: Request,
  prefix: string,
  name: LimitName,
  user: ResolvedUser,
): string {
  if (name === 'signedOutMint') return `${prefix}${name}:all`;
  if (user === undefined) return `${prefix}${name}:ip:${ipKeyGenerator(withoutPort(req.ip ?? ''))}`;
  const who = JSON.stringify([
    user.clientId ?? '',
    asciiLowerCase(user.microsoftTenantId ?? ''),
    asciiLowerCase(user.userIdentifier ?? ''),
  ]);
  return `${prefix}${name}:user:${who.length > MAX_WHO_LENGTH ? hashOf(who) : who}`;
}

/**
 * `text` with A to Z lower-cased, and nothing else: toLowerCase() also folds a few other letters
 * into ASCII ones (KELVIN SIGN, U+212A, into `k`), so a portal whose users choose their own
 * identifiers would let `\u212Aim@example.com` spend `kim@example.com`'s count. The identifiers
 * compared without case (Microsoft's UPNs, Google's addresses) are ASCII.
 */
function asciiLowerCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * The client address without a port. Some proxies write it into X-Forwarded-For with the port
 * the client connected from (Azure App Service: `203.0.113.1:50412`, `[2001:db8::1]:50412`),
 * which Express's `req.ip` keeps: each connection would count under a key of its own.
 */
function withoutPort(ip: string): string {
  const found =
    /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(ip) ?? /^\[([^\]]+)\](?::\d{1,5})?$/.exec(ip);
  const address = found?.[1];
  return address !== undefined && isIP(address) !== 0 ? address : ip;
}

/**
 * The longest user part kept as it is in a key, readable in a store: a usual user (a client id
 * and a tenant id, both GUIDs, and an address) fits. A store holds at most so many keys (50,000
 * in memory), not so many bytes, so a longer one, where users choose their own identifiers, is
 * counted under its SHA-256, and the README's memory figure holds.
 */
export const MAX_WHO_LENGTH = 128;

const hashOf = (who: string) => `sha256:${createHash('sha256').update(who).digest('hex')}`;
