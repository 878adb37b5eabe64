/**
 * Who may drive the HTTP control API. It listens on loopback only, but a web page can still
 * reach it: through DNS rebinding (a foreign name resolving to 127.0.0.1, so a foreign `Host`)
 * or with a simple cross-origin request, which runs even when CORS hides the answer. So it
 * answers only loopback `Host` names and, from a browser, only the origins it was given.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { isLoopbackHost } from './loopback-host.js';

export function loopbackHostOnly(): RequestHandler {
  return function loopbackHostOnly(req: Request, res: Response, next: NextFunction) {
    if (isLoopbackHost(req.get('host'))) return next();
    res.status(403).json({
      error: 'The control API answers only a loopback Host (localhost, 127.0.0.1, [::1]).',
    });
  };
}

/**
 * A request without `Origin` (a script, a test, the demo's server) passes. A browser's request
 * passes only from an allowed origin, which then gets CORS headers naming it.
 */
export function controlCors(allowedOrigins: readonly string[]): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return function controlCors(req: Request, res: Response, next: NextFunction) {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin !== undefined && !allowed.has(origin)) {
      return void res.status(403).json({
        error: `Origin ${origin} may not use the control API; start the sandbox with --control-origin ${origin} (or controlOrigins) to allow it.`,
      });
    }
    if (origin !== undefined) {
      res.set({
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'content-type',
      });
    }
    if (req.method === 'OPTIONS') return void res.status(204).end();
    next();
  };
}
