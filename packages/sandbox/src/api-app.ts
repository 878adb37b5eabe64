/**
 * The API origin (`baseUrl`). One handler, in the order stripe-mock uses: authenticate (and
 * count the request against the key's limit), route, then answer, reading the body only there
 * and only for the routes that take one. Every answer, unknown routes included, has the
 * contract's error shape: `{error: string}`, or a SessionError `{error: {code, message,
 * retryable}}` on the two form-session endpoints.
 */
import express, { type NextFunction, type Request, type Response } from 'express';
import { answeredFault } from './answered-fault.js';
import { answer } from './api-answers.js';
import { sendError } from './api-errors.js';
import { isFormSessionRoute, matchRoute } from './api-routes.js';
import { authenticate } from './authenticate.js';
import type { SandboxControl } from './control.js';
import { CONTROL_PATH } from './control-path.js';
import { controlRouter } from './control-router.js';
import { held } from './held-request.js';
import type { SandboxState } from './sandbox-state.js';

export function createApiApp(state: SandboxState, control: SandboxControl): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (state.config.controlApi)
    app.use(CONTROL_PATH, controlRouter(control, state.config.controlOrigins));
  app.use(async function serveApi(req: Request, res: Response) {
    const route = matchRoute(req.method, req.path);
    state.countRequest(route?.key ?? `${req.method} (no route)`);
    const session = route !== undefined && isFormSessionRoute(route.name);
    // A mint is never cached, and neither is a refusal of one.
    if (session) res.set('Cache-Control', 'no-store');
    if (state.latencyMs > 0 && !(await held(state, req, res, state.latencyMs))) return;

    // 1. Authenticate, then count the request against the key's limit (unknown routes and
    // faults included, so every authenticated answer carries the limit headers).
    const auth = authenticate(req.get('authorization'));
    if (!auth.ok) return sendError(res, session, 'invalid_api_key', auth.message);
    const limit = state.limits.take(session ? 'mints' : 'reads', auth.apiKey);
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
    if (fault && (await answeredFault(state, req, res, fault, session))) return;
    // 3. Answer.
    const foreignOrigin =
      fault?.kind === 'foreignEmbedUrl' ? (fault.origin ?? 'https://foreign.example') : undefined;
    await answer(state, { req, res, route, organisationId: auth.organisationId, foreignOrigin });
  });
  app.use(function apiError(_error: unknown, req: Request, res: Response, _next: NextFunction) {
    if (res.headersSent) return void req.socket.destroy();
    const route = matchRoute(req.method, req.path);
    const session = route !== undefined && isFormSessionRoute(route.name);
    sendError(res, session, 'internal_error', 'Unexpected error in the sandbox.');
  });
  return app;
}
