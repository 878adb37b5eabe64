import { isLoopbackHost } from '@form-embed/sandbox';
import type { NextFunction, Request, Response } from 'express';

/**
 * The demo answers only requests made to a loopback name (localhost, *.localhost, 127.0.0.1,
 * [::1]). A page on another site whose name an attacker points at 127.0.0.1 (DNS rebinding)
 * would otherwise call the middleware as the demo's user (with FORM_EMBED_USER, a real one)
 * and read the embedUrl, handle and all, or drive the sandbox's controls.
 */
export function demoOnLoopbackOnly(req: Request, res: Response, next: NextFunction): void {
  if (isLoopbackHost(req.get('host'))) next();
  else res.status(403).type('text/plain').send('The demo answers only on localhost.');
}

/**
 * Only the demo's own pages: a browser's request from another origin (a simple POST runs even
 * when CORS hides its answer) is refused before it reaches the sandbox's controls.
 */
export function sameOriginOnly(req: Request, res: Response, next: NextFunction): void {
  const origin = req.get('origin');
  const site = req.get('sec-fetch-site');
  const own = `${req.protocol}://${req.get('host')}`;
  if ((origin === undefined || origin === own) && (site === undefined || site === 'same-origin')) {
    next();
  } else res.status(403).json({ error: "The QA controls answer the demo's own pages only." });
}
