/**
 * The control API over HTTP, at `/__sandbox/control/<action>` on the API origin, served only
 * when the sandbox starts with `controlApi: true` (CLI `--control`). It answers any origin
 * (CORS `*`) so a QA page can call it; it is a sandbox feature, not part of the service.
 */
import express, { type Request, type Response, Router } from 'express';
import type { SandboxControl } from './control.js';
import type { FaultSpec } from './faults.js';
import { parseMicrosoftConnection } from './microsoft-connection.js';
import { BODY_LIMIT, describeBodyProblem } from './request-body.js';

type Action = (control: SandboxControl, body: Record<string, unknown>) => unknown;

const actions: Record<string, Action> = {
  'expire-sessions': (control) => control.expireSessions(),
  fail: (control, body) => control.fail(body as unknown as FaultSpec),
  'microsoft-connection': (control, body) =>
    control.setMicrosoftConnection(parseMicrosoftConnection(body)),
  'exhaust-rate-limit': (control, body) => {
    if (body.kind !== 'mints' && body.kind !== 'reads')
      throw new TypeError('kind must be mints or reads');
    return control.exhaustRateLimit(body.kind);
  },
  latency: (control, body) => control.setLatency(Number(body.ms)),
  'forms-domain': (control, body) =>
    control.changeFormsDomain(body.kind === 'coreForms' ? 'coreForms' : 'forms'),
  stats: (control) => ({ requests: control.stats() }),
  reset: (control) => control.reset(),
};

export function controlRouter(control: SandboxControl): Router {
  const router = Router();
  router.use((req, res, next) => {
    res.set({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
      'Access-Control-Allow-Headers': 'content-type',
      'Cache-Control': 'no-store',
    });
    if (req.method === 'OPTIONS') return void res.status(204).end();
    next();
  });
  router.use(express.json({ strict: false, limit: BODY_LIMIT }));
  const run = async (req: Request<{ action: string }>, res: Response) => {
    const action = Object.hasOwn(actions, req.params.action)
      ? actions[req.params.action]
      : undefined;
    if (!action)
      return void res.status(404).json({ error: `No control action ${req.params.action}.` });
    const body = typeof req.body === 'object' && req.body !== null ? req.body : {};
    try {
      const result = await action(control, body);
      res.json({ ok: true, ...(typeof result === 'object' && result !== null ? result : {}) });
    } catch (error) {
      res
        .status(400)
        .json({ error: error instanceof Error ? error.message : 'Bad control request.' });
    }
  };
  router.post('/:action', run);
  router.get('/stats', (_req, res) => void res.json({ ok: true, requests: control.stats() }));
  router.use((error: unknown, _req: Request, res: Response, _next: express.NextFunction) => {
    const problem = describeBodyProblem(error);
    res.status(problem ? 400 : 500).json({ error: problem ?? 'Unexpected error in the sandbox.' });
  });
  return router;
}
