import { canonicalOrigin } from '@form-embed/protocol';
import cors from 'cors';
import type { RequestHandler } from 'express';

/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

/** Whether `origin` (a request's `Origin`) is one of `allowedOrigins`, compared canonically. */
export function isAllowedOrigin(allowedOrigins: ReadonlySet<string>, origin: string | undefined) {
  return origin !== undefined && allowedOrigins.has(canonicalOrigin(origin) ?? '');
}

/**
 * CORS for the pages of `allowedOrigins` (a sibling subdomain, say), and for nobody else. A
 * page on another origin sends the element's JSON POST only after a preflight, and reads the
 * answer only when it carries these headers, `Retry-After` among those it may read; with
 * credentials, so that the portal's session cookie goes along. Any other origin gets no CORS header, and `refuseCrossSite` refuses it.
 *
 * A grant the portal's own `cors()` in front of the Router gave another origin is taken back:
 * that page must never read an answer, not even one that passed the `Origin` check through an
 * `X-Forwarded-Host` it wrote (trusted by `trust proxy`) in a browser that sends no
 * `Sec-Fetch-Site`. The portal's own pages are same-origin and need no grant.
 */
export function corsForAllowedOrigins(allowedOrigins: ReadonlySet<string>): RequestHandler {
  const grant =
    allowedOrigins.size > 0
      ? cors({
          origin: (origin, answer) => answer(null, isAllowedOrigin(allowedOrigins, origin)),
          credentials: true,
          methods: ['GET', 'POST'],
          // A page reads no response header but the safelisted ones unless told: without this, the
          // element never saw a refusal's Retry-After and retried on its own 1, 2, 4 s backoff.
          exposedHeaders: ['Retry-After'],
          maxAge: PREFLIGHT_MAX_AGE_S,
        })
      : undefined;
  return function corsForAllowedOrigins(req, res, next) {
    const { origin } = req.headers;
    if (origin !== undefined && !isAllowedOrigin(allowedOrigins, origin)) {
      res.removeHeader('Access-Control-Allow-Origin');
      res.removeHeader('Access-Control-Allow-Credentials');
    }
    if (grant) grant(req, res, next);
    else next();
  };
}
