/**
 * The API origin (`baseUrl`). One handler, in the order stripe-mock uses: authenticate (and
 * count the request against the key's limit), route, then answer, reading the body only there
 * and only for the routes that take one. Every answer, unknown routes included, has the
 * contract's error shape: `{error: string}`, or a SessionError `{error: {code, message,
 * retryable}}` on the two form-session endpoints.
 */
import { statusOfSessionErrorCode, UNKNOWN_CODE_STATUS } from '@form-embed/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';
import { answer } from './api-answers.js';
import { sendError, sendSessionError } from './api-errors.js';
import { isSessionRoute, matchRoute } from './api-routes.js';
import { authenticate } from './authenticate.js';
import type { SandboxControl } from './control.js';
import { controlRouter } from './control-router.js';
import type { Fault } from './faults.js';
import type { SandboxState } from './sandbox-state.js';

/** The wait an injected 429 or 503 tells, unless its spec gives one (or `null`). */
const DEFAULT_FAULT_RETRY_AFTER_S = 1;

import { sleep } from './sleep.js';

export const CONTROL_PATH = '/__sandbox/control';

export function createApiApp(state: SandboxState, control: SandboxControl): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (state.config.controlApi)
    app.use(CONTROL_PATH, controlRouter(control, state.config.controlOrigins));
  app.use(async function serveApi(req: Request, res: Response) {
    const route = matchRoute(req.method, req.path);
    state.countRequest(route?.key ?? `${req.method} (no route)`);
    const session = route !== undefined && isSessionRoute(route.name);
    // A mint is never cached, and neither is a refusal of one.
    if (session) res.set('Cache-Control', 'no-store');
    if (state.latencyMs > 0) await sleep(state.latencyMs);

    // 1. Authenticate, then count the request against the key's limit (unknown routes and
    // faults included, so every authenticated answer carries the limit headers).
    const auth = authenticate(req.get('authorization'));
    if (!auth.ok) return sendError(res, session, 'invalid_api_key', auth.message);
    const limit = await state.limits.take(session ? 'mints' : 'reads', auth.apiKey);
    res.set({
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': String(limit.remaining),
    });
    if (!limit.allowed) {
      res.set('Retry-After', String(limit.retryAfter));
      const message = 'Too many requests for this key; wait Retry-After seconds.';
      return sendError(res, session, 'rate_limited', message);
    }
    // 2. Route.
    if (!route) {
      return void res.status(404).json({ error: `No such route: ${req.method} ${req.path}` });
    }
    const fault = state.faults.take(session ? ['api', 'session'] : ['api']);
    if (fault && (await answeredFault(req, res, fault, session))) return;
    // 3. Answer.
    const foreignOrigin =
      fault?.kind === 'foreignEmbedUrl' ? (fault.origin ?? 'https://foreign.example') : undefined;
    await answer(state, { req, res, route, organisationId: auth.organisationId, foreignOrigin });
  });
  app.use(function apiError(_error: unknown, req: Request, res: Response, _next: NextFunction) {
    if (res.headersSent) return void req.socket.destroy();
    const route = matchRoute(req.method, req.path);
    const session = route !== undefined && isSessionRoute(route.name);
    sendError(res, session, 'internal_error', 'Unexpected error in the sandbox.');
  });
  return app;
}

/** Applies an injected fault; true when it answered (or dropped) the request. */
async function answeredFault(
  req: Request,
  res: Response,
  fault: Fault,
  session: boolean,
): Promise<boolean> {
  switch (fault.kind) {
    case 'foreignEmbedUrl':
      return false;
    case 'delay':
      await sleep(fault.delayMs);
      return false;
    case 'reset':
      req.socket.destroy();
      return true;
    case 'notJson':
      res
        .status(fault.status ?? 200)
        .type('html')
        .send('<html><body><h1>Bad gateway</h1><p>This is not JSON.</p></body></html>');
      return true;
    case 'error': {
      const message = fault.message ?? `Injected fault: ${fault.code}.`;
      const status = fault.status ?? statusOfSessionErrorCode(fault.code, UNKNOWN_CODE_STATUS);
      // As the service answers them, a 429 or 503 says how long to wait unless told otherwise.
      const retryAfter =
        fault.retryAfter === undefined && (status === 429 || status === 503)
          ? DEFAULT_FAULT_RETRY_AFTER_S
          : fault.retryAfter;
      if (retryAfter !== undefined && retryAfter !== null) {
        res.set('Retry-After', String(retryAfter));
      }
      if (session) {
        sendSessionError(res, fault.code, message, {
          status,
          ...(fault.retryable !== undefined ? { retryable: fault.retryable } : {}),
        });
      } else {
        res.status(status).json({ error: message });
      }
      return true;
    }
  }
}
