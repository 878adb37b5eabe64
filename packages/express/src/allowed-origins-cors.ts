import { canonicalOrigin } from '@form-embed/protocol';
import cors from 'cors';
import type { RequestHandler } from 'express';

/** How long a browser may reuse a preflight's answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

/**
 * CORS for the pages of `allowedOrigins` (a sibling subdomain, say), and for nobody else. A
 * page on another origin sends the element's JSON POST only after a preflight, and reads the
 * answer only when it carries these headers; with credentials, so that the portal's session
 * cookie goes along. Any other origin gets no CORS header, and `refuseCrossSite` refuses it.
 */
export function corsForAllowedOrigins(allowedOrigins: ReadonlySet<string>): RequestHandler {
  return cors({
    origin: (origin, answer) =>
      answer(null, origin !== undefined && allowedOrigins.has(canonicalOrigin(origin) ?? '')),
    credentials: true,
    methods: ['GET', 'POST'],
    maxAge: PREFLIGHT_MAX_AGE_S,
  });
}
