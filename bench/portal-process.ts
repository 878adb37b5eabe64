/**
 * The bench portal in a process of its own: `formEmbedSessions` mounted on Express 5 on
 * 127.0.0.1, with a fixed signed-in user and the per-user limit raised, mounted again with its
 * limits in Redis (rate-limit-redis over node-redis, as the express README shows), plus the
 * bench page and `@form-embed/element/define` bundled by esbuild from source, and the anchor
 * proxy.
 */
import type { AddressInfo } from 'node:net';
import { formEmbedSessions } from '@form-embed/express';
import express from 'express';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { measureBundle } from '../packages/element/test/bundle-size.js';
import { anchorProxy } from './anchor-proxy.js';
import { benchPageHtml } from './bench-page.js';
import {
  BENCH_USER,
  CPU_PATH,
  MOUNT_PATH,
  NO_CATALOGUE_CACHE_MOUNT_PATH,
  type PortalInfo,
  RAISED_USER_LIMIT,
  REDIS_MOUNT_PATH,
} from './bench-setup.js';
import { exitWithParent } from './child-process.js';

const { BENCH_BASE_URL: baseUrl, BENCH_API_KEY: apiKey, BENCH_REDIS_URL: redisUrl } = process.env;
if (!baseUrl || !apiKey || !redisUrl) {
  throw new Error('portal-process needs BENCH_BASE_URL, BENCH_API_KEY and BENCH_REDIS_URL');
}

// The very bundle whose size the benchmark reports, so the page times what it measures.
const { withLit } = await measureBundle();
const elementJs = new TextDecoder().decode(withLit.bytes);

const redis = createClient({ url: redisUrl, disableOfflineQueue: true });
redis.on('error', () => {});
await redis.connect();
const redisStore = new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) });

const app = express();
app.disable('x-powered-by');
// Each mount reads the embed origins (GET /api/v1/me) when it is created, and nobody awaits that
// read. The portal says it is ready only once they have answered: a read still out then would be
// counted among the first mints' upstream requests.
const meReads: Promise<unknown>[] = []; // every one: after the creation reads, few or none
const fetchNotingMeReads: typeof fetch = (input, init) => {
  const answer = fetch(input, init);
  if (String(input).endsWith('/api/v1/me')) {
    meReads.push(answer.catch(() => {}));
  }
  return answer;
};
const options = { apiKey, baseUrl, resolveUser: () => BENCH_USER, fetch: fetchNotingMeReads };
app.use(MOUNT_PATH, formEmbedSessions({ ...options, limit: RAISED_USER_LIMIT }));
app.use(
  NO_CATALOGUE_CACHE_MOUNT_PATH,
  formEmbedSessions({ ...options, limit: RAISED_USER_LIMIT, catalogue: { cacheTtlMs: 0 } }),
);
app.use(
  REDIS_MOUNT_PATH,
  formEmbedSessions({
    ...options,
    limit: { ...RAISED_USER_LIMIT, store: redisStore, prefix: 'form-embed-bench:' },
  }),
);
app.use(anchorProxy(baseUrl, apiKey));
// The portal's CPU time so far, so the bench can divide it by the mints of a load.
app.get(CPU_PATH, (_req, res) => {
  res.set('Cache-Control', 'no-store').json(process.cpuUsage());
});
app.get('/element.js', (_req, res) => {
  res.type('text/javascript').set('Cache-Control', 'no-store').send(elementJs);
});
app.get('/', (_req, res) => {
  res.type('html').set('Cache-Control', 'no-store').send(benchPageHtml);
});

const server = app.listen(0, '127.0.0.1', async () => {
  await Promise.all(meReads);
  const { port } = server.address() as AddressInfo;
  const info: PortalInfo = {
    url: `http://127.0.0.1:${port}`,
    browserUrl: `http://localhost:${port}`,
  };
  process.stdout.write(`${JSON.stringify(info)}\n`);
});
exitWithParent(
  () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
      redis.destroy();
    }),
);
