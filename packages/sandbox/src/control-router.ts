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

interface Action {
  fields: readonly string[] | 'checked';
  run(control: SandboxControl, body: Record<string, unknown>): unknown;
}

/** The actions by path segment (control-actions.ts, which the typed client reads too). */
const actions = new Map<string, Action>(
  Object.values(controlActions).map((action) => [action.path, action as Action]),
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
  // An action asked for with another method: said so, where it fell through to the API's 401.
  router.all('/:action', function wrongMethod(req: Request<{ action: string }>, res, next) {
    const { action } = req.params;
    if (!actions.has(action)) return next();
    const allowed = action === 'stats' ? 'GET, POST' : 'POST';
    res
      .status(405)
      .set('Allow', allowed)
      .json({ error: `${action} takes ${allowed}.` });
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
    // No body is an empty one; a body sent as anything but JSON (curl's -d, a urlencoded form) is
    // refused, not read as empty: forms-domain {"kind":"coreForms"} then moved the designer forms.
    if (req.body === undefined && hasBody(req)) {
      return void res
        .status(400)
        .json({ error: 'Send the body as Content-Type: application/json.' });
    }
    const body: unknown = req.body === undefined ? {} : req.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      return void res.status(400).json({ error: 'The body must be a JSON object.' });
    }
    const extra = unknownField(name, action.fields, body);
    if (extra) return void res.status(400).json({ error: extra });
    try {
      const result = await action.run(control, body as Record<string, unknown>);
      res.json({ ok: true, ...(typeof result === 'object' && result !== null ? result : {}) });
    } catch (error) {
      const message = error instanceof Error ? error.message : 'Bad control request.';
      res.status(400).json({ error: message });
    }
  };
}

/**
 * Whether the request carries a body, of any length but none. Not type-is's `hasBody` (behind
 * `req.is`), which takes `Content-Length: 0`, a bare `fetch` POST's, for a body.
 */
function hasBody(req: Request): boolean {
  const length = req.get('content-length');
  return req.get('transfer-encoding') !== undefined || (length !== undefined && length !== '0');
}

/** The refusal of a field the action does not take (a misspelt `retryafter`), if any. */
function unknownField(name: string, fields: Action['fields'], body: object): string | undefined {
  if (fields === 'checked') return undefined;
  const unknown = Object.keys(body).find((field) => !fields.includes(field));
  if (unknown === undefined) return undefined;
  const takes = fields.length > 0 ? `only ${fields.join(', ')}` : 'none';
  return `${name} has no field ${unknown}: it takes ${takes}.`;
}

function noSuchAction(res: Response, name: string): void {
  res.status(404).json({ error: `No control action ${name}.` });
}
