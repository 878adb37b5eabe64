import { canonicalOrigin } from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isAllowedOrigin } from './allowed-origins-cors.js';
import { countRefusedEarly } from './answer-metrics.js';
import { escapedInvisible, type Logger } from './logger.js';
import { REPEAT_WINDOW_MS } from './repeated-lines.js';
import { sessionError } from './session-error-response.js';
import { trustsSender } from './trusted-sender.js';

/**
 * On every route of the router: a request from another site is refused (`refuseCrossSite`), its
 * origin logged once (`foreignOriginWarnings`).
 */
export function crossSiteGuard(
  allowedOrigins: ReadonlySet<string>,
  logger: Logger,
): RequestHandler {
  const onForeignOrigin = foreignOriginWarnings(logger);
  return function crossSiteGuard(req: Request, res: Response, next: NextFunction): void {
    try {
      refuseCrossSite(req, allowedOrigins, onForeignOrigin);
    } catch (refusal) {
      countRefusedEarly(req, res);
      throw refusal;
    }
    next();
  };
}

/** How many distinct refused origins are logged in a minute; past that, refusals are only answered. */
const LOGGED_FOREIGN_ORIGINS = 10;

/**
 * Logs a refused origin once a minute (REPEAT_WINDOW_MS): behind a proxy that Express's `trust
 * proxy` does not know, the portal's own pages look foreign (https against http, or another
 * host), and every mint is refused as `forbidden` with nothing else in the log. Ten lines a
 * minute at most, and ten more for origins on the router's own host (its pages behind a proxy
 * that ends TLS), which a flood of other origins cannot use up.
 */
function foreignOriginWarnings(logger: Logger): (origin: string, own: string) => void {
  const told = { foreign: new Set<string>(), ownHost: new Set<string>() };
  let windowStart = Date.now();
  return (origin, own) => {
    if (Date.now() - windowStart >= REPEAT_WINDOW_MS) {
      told.foreign.clear();
      told.ownHost.clear();
      windowStart = Date.now();
    }
    // Both are the sender's to choose (Origin, and Host or a trusted X-Forwarded-Host): cut and
    // escaped alike.
    const [from, ours] = [origin, own].map((value) => escapedInvisible(value.slice(0, 200)));
    const pair = `${from} ${ours}`;
    const kind = hostnameOf(origin) === hostnameOf(own) ? told.ownHost : told.foreign;
    if (kind.has(pair) || kind.size >= LOGGED_FOREIGN_ORIGINS) return;
    kind.add(pair);
    logger.warn(
      `refused a request from ${from}: this router's own origin is ${ours}. If that page is the portal's: behind a proxy set Express's trust proxy (app.set('trust proxy', 1)); behind a development server's proxy keep the Host header (Vite: changeOrigin: false); or list the origin in allowedOrigins`,
    );
  };
}

/** The hostname of an origin, or undefined when it is not a URL (`null`, a sender's nonsense). */
function hostnameOf(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).hostname : undefined;
}

/**
 * Refuses a request from another page's origin, on every route:
 * - `Origin`, whenever present, must be the request's own origin (scheme, host and port, as
 *   Express sees them: `trust proxy` decides whether `X-Forwarded-Proto` and `-Host` count)
 *   or one of `allowedOrigins`;
 * - `Sec-Fetch-Site: cross-site` or `same-site` passes only with an allowed `Origin`: a sibling
 *   subdomain is another site's code as far as the portal's session is concerned.
 * A request with neither header (not a browser, or a same-origin GET) passes. A refused origin
 * is told to `onForeignOrigin` with the request's own, for the log.
 */
function refuseCrossSite(
  req: Request,
  allowedOrigins: ReadonlySet<string>,
  onForeignOrigin: (origin: string, own: string) => void,
): void {
  const origin = req.headers.origin;
  const canonical = origin === undefined ? undefined : (canonicalOrigin(origin) ?? '');
  const allowed = isAllowedOrigin(allowedOrigins, origin);
  if (origin !== undefined && !allowed && !isOwnOrigin(req, origin, canonical)) {
    const own = `${req.protocol}://${hostWithPort(req) ?? ''}`;
    onForeignOrigin(origin, own);
    throw sessionError(
      'forbidden',
      // The router's own origin goes to the log only: behind a proxy that rewrites Host, it is
      // an inner address.
      `The request comes from another origin: Origin ${origin.slice(0, 200)} is neither this router's nor an allowed one (see the portal's log).`,
    );
  }
  const site = req.headers['sec-fetch-site']?.trim().toLowerCase();
  if ((site === 'cross-site' || site === 'same-site') && !allowed) {
    throw sessionError(
      'forbidden',
      `Requests from another site are refused (Sec-Fetch-Site: ${site}) unless their origin is allowed.`,
    );
  }
}

/** Whether `origin` is the request's own, compared as written first (a browser's usual form). */
function isOwnOrigin(req: Request, origin: string, canonical: string | undefined): boolean {
  const host = hostWithPort(req);
  if (host === undefined) return false;
  const own = `${req.protocol}://${host}`;
  return origin === own || canonical === canonicalOrigin(own);
}

/**
 * The host and port, read as Express 5's `req.host` reads them. Express 4's `req.host` is its
 * `hostname`, without the port, so a portal on a non-default port would refuse its own pages.
 */
function hostWithPort(req: Request): string | undefined {
  const forwarded = req.get('x-forwarded-host');
  const host =
    forwarded && trustsSender(req) ? forwarded.split(',', 1)[0]?.trim() : req.get('host');
  return host || undefined;
}

/**
 * Accepts only `application/json` bodies (in UTF-8) on a POST. A page on another site cannot
 * send that type without a CORS preflight, which this middleware grants only to the origins
 * listed in `allowedOrigins`.
 */
export function refuseNonJson(req: Request): void {
  const type = req.headers['content-type'];
  if (type === 'application/json' || isJsonType(type)) return;
  throw sessionError(
    'invalid_request',
    'A mint request must have Content-Type: application/json, in UTF-8.',
  );
}

function isJsonType(header: string | undefined): boolean {
  const [type, ...parameters] = (header ?? '').toLowerCase().split(';');
  if (type?.trim() !== 'application/json') return false;
  const charset = parameters.find((parameter) => parameter.trim().startsWith('charset='));
  // A parameter value may be a quoted string (RFC 9110 §5.6.6): charset="utf-8" is UTF-8 too.
  return charset === undefined || /^(utf-?8|"utf-?8")$/.test(charset.split('=')[1]?.trim() ?? '');
}
