import type { NextFunction, Request, Response } from 'express';
import { sessionError } from './session-error-response.js';

/**
 * Refuses what a browser marks as cross-site (`Sec-Fetch-Site: cross-site`). Browsers without
 * Fetch Metadata still send `Origin` on a POST: there it must name this host.
 */
export function refuseCrossSite(req: Request, _res: Response, next: NextFunction): void {
  const site = req.get('sec-fetch-site');
  if (site?.trim().toLowerCase() === 'cross-site') {
    throw sessionError(
      'forbidden',
      'Cross-site requests are refused (Sec-Fetch-Site: cross-site).',
    );
  }
  const origin = req.get('origin');
  const unsafe = req.method !== 'GET' && req.method !== 'HEAD';
  if (
    site === undefined &&
    origin !== undefined &&
    unsafe &&
    hostnameOf(origin) !== req.hostname?.toLowerCase()
  ) {
    throw sessionError(
      'forbidden',
      'The request comes from another origin (Origin does not name this host).',
    );
  }
  next();
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

// Host names, not hosts: Express 4's `req.host` has no port. Another port on this host is
// same-site, which Sec-Fetch-Site above accepts too.
function hostnameOf(origin: string): string | undefined {
  try {
    return new URL(origin).hostname;
  } catch {
    return undefined;
  }
}
