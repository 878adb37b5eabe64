/**
 * The control API over HTTP, at `/__sandbox/control/<action>` on the API origin, served only
 * when the sandbox starts with `controlApi: true` (CLI `--control`). It answers only a loopback
 * `Host`, and browsers only from `controlOrigins` (see control-access.ts). It is a sandbox
 * feature, not part of the service.
 */
import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { SandboxControl } from './control.js';
import { controlCors, loopbackHostOnly } from './control-access.js';
import { controlActions, statsOf } from './control-actions.js';
import { BODY_LIMIT, describeBodyProblem } from './request-body.js';
import { isUndecodablePath } from './undecodable-path.js';

type Action = (control: SandboxControl, body: Record<string, unknown>) => unknown;

/** The actions by path segment (control-actions.ts, which the typed client reads too). */
const actions = new Map<string, Action>(
  Object.values(controlActions).map(({ path, run }) => [path, run as Action]),
);

export function controlRouter(control: SandboxControl, allowedOrigins: readonly string[]): Router {
  const router = Router();
  router.use(function noStore(_req, res, next) {
    res.set('Cache-Control', 'no-store');
    next();
  });
  router.use(loopbackHostOnly(), controlCors(allowedOrigins));
  router.use(express.json({ strict: false, limit: BODY_LIMIT }));
  router.post('/:action', runControlAction(control));
  router.get('/stats', function controlStats(_req, res) {
    res.json({ ok: true, ...statsOf(control) });
  });
  router.use(function controlError(
    error: unknown,
    req: Request,
    res: Response,
    _next: NextFunction,
  ) {
    if (isUndecodablePath(error)) return noSuchAction(res, req.path.slice(1));
    const problem = describeBodyProblem(error);
    res.status(problem ? 400 : 500).json({ error: problem ?? 'Unexpected error in the sandbox.' });
  });
  return router;
}

function runControlAction(control: SandboxControl) {
  return async function runControlAction(req: Request<{ action: string }>, res: Response) {
    const { action: name } = req.params;
    const action = actions.get(name);
    if (!action) return noSuchAction(res, name);
    const body = typeof req.body === 'object' && req.body !== null ? req.body : {};
    try {
      const result = await action(control, body);
      res.json({ ok: true, ...(typeof result === 'object' && result !== null ? result : {}) });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Bad control request.';
      res.status(400).json({ error: message });
    }
  };
}

function noSuchAction(res: Response, name: string): void {
  res.status(404).json({ error: `No control action ${name}.` });
}
