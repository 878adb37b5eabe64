import type { NextFunction, Request, Response } from 'express';
import type { EmbedOriginPair } from './service-origins.js';

/**
 * The policy a security-conscious portal sends with its pages: nothing inline, nothing from
 * elsewhere, script sinks only through Trusted Types, frames only from `frames` (the embed
 * origins the service names), framed by `ancestors` only. The element needs nothing more: its
 * styles are an adopted stylesheet, and it writes text, never HTML.
 */
export function contentSecurityPolicy(frames: readonly string[], ancestors = "'none'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    // 'self' covers Vite's HMR websocket on the same host and port under `npm start`.
    "connect-src 'self'",
    // data: for the pages' empty favicon (`<link rel="icon" href="data:,">`).
    "img-src 'self' data:",
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    `frame-ancestors ${ancestors}`,
    "require-trusted-types-for 'script'",
  ].join('; ');
}

/** The host name under which the hostile page frames a page of the demo's own (see hostile.ts). */
const HOSTILE_HOST = 'hostile.localhost';

/**
 * Sends the policy with every HTML page, built per request from the embed origins as they are
 * now: a new forms domain reaches the next page (a page already open keeps its policy, and
 * frames nothing from the new domain until reloaded). The hostile page may also frame its
 * attacker's page, which only the demo's pages may frame.
 */
export function servePolicy(embedOrigins: () => Promise<EmbedOriginPair | undefined>) {
  return async function servePolicy(req: Request, res: Response, next: NextFunction) {
    if (req.method !== 'GET' || !/^\/$|\.html$/.test(req.path)) return next();
    const { port } = new URL(`${req.protocol}://${req.get('host')}`);
    if (req.path === '/hostile-frame.html') {
      res.set('Content-Security-Policy', contentSecurityPolicy([], `http://localhost:${port}`));
      return next();
    }
    const origins = await embedOrigins();
    const frames = origins ? [origins.formsOrigin, origins.coreFormsOrigin] : [];
    if (req.path === '/hostile.html') frames.push(`${req.protocol}://${HOSTILE_HOST}:${port}`);
    res.set('Content-Security-Policy', contentSecurityPolicy(frames));
    next();
  };
}
