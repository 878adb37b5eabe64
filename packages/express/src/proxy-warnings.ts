import type { Request } from 'express';
import { logOnce } from './log-once.js';
import type { Logger } from './logger.js';
import { trustsSender } from './trusted-sender.js';

/**
 * Signed out, a client is counted by its address, `req.ip`, which is only as true as Express's
 * `trust proxy` setting. Warns once per middleware of each of the three ways it goes wrong.
 * express-rate-limit checks the first two only in its own key generator, which the limits
 * replace. The third: a setting that trusts the request's sender (a hop count, say) with no
 * proxy in front, which a request that comes with no X-Forwarded-For shows; then a client
 * that writes one is counted under any address it names.
 */
export function proxyWarnings(logger: Logger): (req: Request) => void {
  const warn = logOnce(logger);
  return function warnOfClientAddress(req) {
    const trustProxy: unknown = req.app.get('trust proxy');
    if (trustProxy === true) {
      warn(
        "Express's 'trust proxy' is true: a signed-out client counts under any address it writes in X-Forwarded-For. Set it to the number of proxies in front of the portal, or their addresses.",
      );
    } else if (
      trustProxy === false &&
      req.headers['x-forwarded-for'] !== undefined &&
      // Unless something before the Router took the address from it (Fastify's trustProxy,
      // which @fastify/express copies onto req.ip).
      req.ip === req.socket.remoteAddress
    ) {
      warn(
        "A request came through a proxy (X-Forwarded-For) but Express's 'trust proxy' is not set: every signed-out client counts as the proxy's address. Set it to the number of proxies in front of the portal.",
      );
    } else if (req.headers['x-forwarded-for'] === undefined && trustsSender(req)) {
      warn(
        "Express's 'trust proxy' trusts this request's sender, but it came with no X-Forwarded-For: no proxy in front adds one, so a signed-out client counts under any address it writes in its own. Set 'trust proxy' only where a proxy that adds X-Forwarded-For is in front of the portal, or to its addresses.",
      );
    }
  };
}
