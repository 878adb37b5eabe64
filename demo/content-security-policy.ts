import type { EmbedOrigins } from '@form-embed/express';
import type { NextFunction, Request, Response } from 'express';

/**
 * The policy a security-conscious portal sends with its pages: nothing inline, nothing from
 * elsewhere, script sinks only through Trusted Types, frames only from `frames` (the embed
 * origins the service names), framed by `ancestors` only. The element needs nothing more: its
 * styles are an adopted stylesheet, and it writes text, never HTML.
 */
function contentSecurityPolicy(frames: readonly string[], ancestors = "'none'"): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // Vite's error overlay (`npm start`, on a build error) is a <style> of its own: unstyled here.
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
 * The usual loopback names the demo is opened under (it answers `*.localhost` and 127/8 too).
 * Not `[::1]`: a policy cannot name an IPv6 address (Chromium drops it with a console error), so
 * under that name the hostile page's attacker frame is refused.
 */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1'];

/**
 * Sends the policy with every page and file the demo serves (a page's path may be spelled
 * `%`-encoded, or as a fallback of the dev server: the hostile pages' own policies need their exact
 * path, or they get the strict one), built per request from the embed origins as they are now: a
 * new forms domain reaches the next page (a page already open keeps its policy, and frames nothing
 * from the new domain until reloaded). The hostile page may also frame its attacker's page, which
 * only the demo's own pages may frame.
 */
export function servePolicy(embedOrigins: () => Promise<EmbedOrigins | undefined>) {
  return async function servePolicy(req: Request, res: Response, next: NextFunction) {
    const { port } = new URL(`${req.protocol}://${req.get('host')}`);
    const on = (host: string) => `${req.protocol}://${host}${port ? `:${port}` : ''}`;
    const path = decoded(req.path);
    if (path === '/hostile-frame.html') {
      res.set(
        'Content-Security-Policy',
        contentSecurityPolicy([], LOOPBACK_NAMES.map(on).join(' ')),
      );
      return next();
    }
    const origins = await embedOrigins();
    const frames = origins ? [origins.formsOrigin, origins.coreFormsOrigin] : [];
    if (path === '/hostile.html') frames.push(on(HOSTILE_HOST));
    res.set('Content-Security-Policy', contentSecurityPolicy(frames));
    next();
  };
}

/** The path as the static server will read it (`/hostile%2ehtml` is `/hostile.html`). */
function decoded(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}
