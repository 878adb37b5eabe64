import type { Request } from 'express';

/** A portal's own function is kept as it is, and may answer any value. */
type TrustProxy = (address: string | undefined, hop: number) => unknown;

/**
 * Whether Express's `trust proxy` setting trusts the request's sender, the nearest hop: then
 * `X-Forwarded-For`, `-Proto` and `-Host` are read as the sender wrote them. Its answer is
 * tested for truth, as Express tests it for `req.protocol` and `req.hostname`.
 */
export function trustsSender(req: Request): boolean {
  const trust = req.app.get('trust proxy fn') as TrustProxy | undefined;
  return Boolean(trust?.(req.socket.remoteAddress, 0));
}
