import type { Request } from 'express';

type TrustProxy = (address: string | undefined, hop: number) => boolean;

/**
 * Whether Express's `trust proxy` setting trusts the request's sender, the nearest hop: then
 * `X-Forwarded-For`, `-Proto` and `-Host` are read as the sender wrote them.
 */
export function trustsSender(req: Request): boolean {
  const trust = req.app.get('trust proxy fn') as TrustProxy | undefined;
  return trust?.(req.socket.remoteAddress, 0) === true;
}
