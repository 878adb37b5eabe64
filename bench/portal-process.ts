/**
 * The bench portal in a process of its own: `formEmbedSessions` mounted on Express 5 on
 * 127.0.0.1, with a fixed signed-in user and the per-user limit raised, plus the bench page
 * and `@form-embed/element/define` bundled by esbuild from source, and the anchor proxy.
 */
import type { AddressInfo } from 'node:net';
import { formEmbedSessions } from '@form-embed/express';
import express from 'express';
import { measureBundle } from '../packages/element/test/bundle-size.js';
import { anchorProxy } from './anchor-proxy.js';
import { benchPageHtml } from './bench-page.js';
import { BENCH_USER, MOUNT_PATH, type PortalInfo, RAISED_USER_LIMIT } from './bench-setup.js';
import { exitWithParent } from './child-process.js';

const { BENCH_BASE_URL: baseUrl, BENCH_API_KEY: apiKey } = process.env;
if (!baseUrl || !apiKey) throw new Error('portal-process needs BENCH_BASE_URL and BENCH_API_KEY');

// The very bundle whose size the benchmark reports, so the page times what it measures.
const { withLit } = await measureBundle();
const elementJs = new TextDecoder().decode(withLit.bytes);

const app = express();
app.disable('x-powered-by');
app.use(
  MOUNT_PATH,
  formEmbedSessions({
    apiKey,
    baseUrl,
    resolveUser: () => BENCH_USER,
    limit: RAISED_USER_LIMIT,
  }),
);
app.use(anchorProxy(baseUrl, apiKey));
app.get('/element.js', (_req, res) => {
  res.type('text/javascript').set('Cache-Control', 'no-store').send(elementJs);
});
app.get('/', (_req, res) => {
  res.type('html').set('Cache-Control', 'no-store').send(benchPageHtml);
});

const server = app.listen(0, '127.0.0.1', () => {
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
    }),
);
