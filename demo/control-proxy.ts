import { CONTROL_PATH } from '@form-embed/sandbox';
import { Router as createRouter, json, type Router } from 'express';

/**
 * Forwards the QA panel's buttons to the sandbox's HTTP control API. The sandbox's control API
 * is off unless the demo starts it with `controlApi: true`; it does not exist on a real service.
 */
export function controlProxy(sandboxBaseUrl: string): Router {
  const router = createRouter();
  router.post('/:action', json(), async (req, res) => {
    // Express has decoded the action: `..` or `%2e%2e` would leave the control path once the
    // URL below is parsed. Every action is a lower-case word or words joined by hyphens.
    if (!/^[a-z]+(-[a-z]+)*$/.test(req.params.action)) {
      res.status(404).json({ error: 'no such control action' });
      return;
    }
    const upstream = await fetch(
      `${sandboxBaseUrl}${CONTROL_PATH}/${encodeURIComponent(req.params.action)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(req.body ?? {}),
      },
    ).catch(() => undefined);
    if (!upstream) {
      res.status(503).json({ error: 'the sandbox did not answer' });
      return;
    }
    res
      .status(upstream.status)
      .type('application/json')
      .send(await upstream.text());
  });
  return router;
}
