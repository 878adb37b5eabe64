import express, { type Router } from 'express';
import { BENCH_USER, SANDBOX_MINT_PATH } from './bench-setup.js';

export const ANCHOR_PATH = '/anchor/mint';

/**
 * The anchor for the middleware figures: the least a Node mint proxy does (Express route, one
 * global `fetch` upstream, the JSON passed back), with no user, limit, CSRF or shape checks.
 * Not a way to mount anything: it only shows what two hops cost on this machine.
 */
export function anchorProxy(baseUrl: string, apiKey: string): Router {
  const router = express.Router();
  const body = JSON.stringify({ user: BENCH_USER });
  router.post(ANCHOR_PATH, async (_req, res) => {
    const answer = await fetch(`${baseUrl}${SANDBOX_MINT_PATH}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body,
    });
    res.status(answer.status).json(await answer.json());
  });
  return router;
}
