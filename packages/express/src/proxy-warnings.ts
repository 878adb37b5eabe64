import type { Request } from 'express';
import type { Logger } from './logger.js';

/**
 * Signed out, a client is counted by its address, `req.ip`, which is only as true as Express's
 * `trust proxy` setting. Warns once per middleware of each of the two ways it goes wrong.
 * express-rate-limit checks these only in its own key generator, which the limits replace.
 */
export function proxyWarnings(logger: Logger): (req: Request) => void {
  const warned = new Set<string>();
  const warnOnce = (problem: string, message: string) => {
    if (warned.has(problem)) return;
    warned.add(problem);
    logger.warn(message);
  };
  return function warnOfClientAddress(req) {
    const trustProxy: unknown = req.app.get('trust proxy');
    if (trustProxy === true) {
      warnOnce(
        'permissive',
        "Express's 'trust proxy' is true: a signed-out client counts under any address it writes in X-Forwarded-For. Set it to the number of proxies in front of the portal, or their addresses.",
      );
    } else if (trustProxy === false && req.headers['x-forwarded-for'] !== undefined) {
      warnOnce(
        'unset',
        "A request came through a proxy (X-Forwarded-For) but Express's 'trust proxy' is not set: every signed-out client counts as the proxy's address. Set it to the number of proxies in front of the portal.",
      );
    }
  };
}
