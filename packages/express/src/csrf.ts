import { canonicalOrigin } from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sessionError } from './session-error-response.js';

/**
 * Refuses a request from another page's origin, on every route:
 * - `Origin`, whenever present, must be the request's own origin (scheme, host and port, as
 *   Express sees them: `trust proxy` decides whether `X-Forwarded-Proto` and `-Host` count)
 *   or one of `allowedOrigins`;
 * - `Sec-Fetch-Site: cross-site` or `same-site` passes only with an allowed `Origin`: a sibling
 *   subdomain is another site's code as far as the portal's session is concerned.
 * A request with neither header (not a browser, or a same-origin GET) passes.
 */
export function refuseCrossSite(allowedOrigins: ReadonlySet<string>): RequestHandler {
  return function refuseCrossSite(req: Request, _res: Response, next: NextFunction): void {
    const origin = req.get('origin');
    const allowed = origin !== undefined && allowedOrigins.has(canonicalOrigin(origin) ?? '');
    if (origin !== undefined && !allowed && canonicalOrigin(origin) !== ownOrigin(req)) {
      throw sessionError(
        'forbidden',
        'The request comes from another origin (Origin is neither this origin nor an allowed one).',
      );
    }
    const site = req.get('sec-fetch-site')?.trim().toLowerCase();
    if ((site === 'cross-site' || site === 'same-site') && !allowed) {
      throw sessionError(
        'forbidden',
        `Requests from another site are refused (Sec-Fetch-Site: ${site}) unless their origin is allowed.`,
      );
    }
    next();
  };
}

/** The origin this request was addressed to, as Express reads it (honouring `trust proxy`). */
function ownOrigin(req: Request): string | undefined {
  const host = hostWithPort(req);
  return host ? canonicalOrigin(`${req.protocol}://${host}`) : undefined;
}

type TrustProxy = (address: string | undefined, hop: number) => boolean;

/**
 * The host and port, read as Express 5's `req.host` reads them. Express 4's `req.host` is its
 * `hostname`, without the port, so a portal on a non-default port would refuse its own pages.
 */
function hostWithPort(req: Request): string | undefined {
  const trust = req.app.get('trust proxy fn') as TrustProxy | undefined;
  const forwarded = req.get('x-forwarded-host');
  const host =
    forwarded && trust?.(req.socket.remoteAddress, 0)
      ? forwarded.split(',', 1)[0]?.trim()
      : req.get('host');
  return host || undefined;
}

/**
 * Accepts only `application/json` bodies on a POST. A page on another site cannot send that
 * type without a CORS preflight, which this middleware never grants.
 */
export function requireJson(req: Request, _res: Response, next: NextFunction): void {
  const type = req.get('content-type')?.split(';', 1)[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    throw sessionError(
      'invalid_request',
      'A mint request must have Content-Type: application/json.',
    );
  }
  next();
}
