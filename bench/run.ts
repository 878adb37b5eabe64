/**
 * `npm run bench`: measures `<form-embed>` and `formEmbedSessions` against the budgets in
 * docs/architecture.md#budgets,
 * prints the table and writes bench-results.json. Every process and browser it starts is
 * stopped in the end, also when a section fails or the run is interrupted.
 */
import { cpus } from 'node:os';
import type { Browser } from 'playwright-core';
import { startRedis } from '../packages/express/test/helpers/redis-server.js';
import type { PortalInfo, SandboxInfo } from './bench-setup.js';
import { benchBrowser, launchChromium } from './browser-timings.js';
import { benchBundleSize } from './bundle-size.js';
import { benchCatalogueCache } from './catalogue-cache.js';
import { type Child, startChild } from './child-process.js';
import { benchMiddlewareThroughput, LOAD, REALISTIC_LATENCY_MS } from './middleware-throughput.js';
import { type BenchReport, writeReport } from './report.js';
import { benchRequestsPerMint } from './requests-per-mint.js';

const started = Date.now();
const report: BenchReport = {
  startedAt: new Date(started).toISOString(),
  durationS: 0,
  machine: { node: process.version, cpus: cpus().length, platform: process.platform },
  notes: [
    "Limits raised for this run: the sandbox's per-key mint and read limits to 1e9 per minute (startSandbox limits), the middleware's per-user limit to 1e9 mints a minute (formEmbedSessions limit.mints).",
    "Processes: the sandbox, the portal (Express 5 + formEmbedSessions) and the load generator (autocannon, in this process) each run in their own Node process, all on 127.0.0.1; redis-server (no persistence) holds the limits of the portal's second mount.",
    `Load: POST form_open mints (a portal user: provider portal, with a handle), ${LOAD.connections} connections, ${LOAD.durationS} s per load, ${LOAD.rounds} rounds, each straight first, then through formEmbedSessions / through the anchor proxy / through formEmbedSessions with its limits in Redis in an order that turns by one each round, after a ${LOAD.warmupS} s warm-up of each; the sandbox is reset before every load. Then straight and through formEmbedSessions only, with the sandbox answering in ${REALISTIC_LATENCY_MS} ms, a typical hosted API.`,
    'Browser: Chromium headless, portal page on http://localhost, sandbox on 127.0.0.1 (cross-site); the 1,000 connect/disconnect cycles use a fetchSession that never settles (no real mints).',
  ],
  figures: [],
  failures: [],
};

const cleanups: (() => Promise<unknown>)[] = [];
let cleaning: Promise<void> | undefined;
const cleanUp = () => {
  cleaning ??= (async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  })();
  return cleaning;
};
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.error(`\nbench: ${signal}, stopping every server and browser`);
    void cleanUp().finally(() => process.exit(130));
  });
}

async function section(name: string, run: () => Promise<BenchReport['figures']>) {
  const start = Date.now();
  process.stdout.write(`bench: ${name}... `);
  try {
    report.figures.push(...(await run()));
    console.log(`${((Date.now() - start) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.log('failed');
    report.failures.push({
      section: name,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

try {
  await section('bundle size', benchBundleSize);

  const sandbox: Child<SandboxInfo> = await startChild(
    new URL('./sandbox-process.ts', import.meta.url),
  );
  cleanups.push(sandbox.stop);
  const redis = await startRedis();
  cleanups.push(redis.kill);
  const portal: Child<PortalInfo> = await startChild(
    new URL('./portal-process.ts', import.meta.url),
    {
      BENCH_BASE_URL: sandbox.info.baseUrl,
      BENCH_API_KEY: sandbox.info.apiKey,
      BENCH_REDIS_URL: redis.url,
    },
  );
  cleanups.push(portal.stop);

  // First, while the portal has not minted yet: its first mints go at once.
  await section('upstream requests per mint', () =>
    benchRequestsPerMint(sandbox.info, portal.info),
  );
  await section('middleware vs straight to the sandbox', () =>
    benchMiddlewareThroughput(sandbox.info, portal.info),
  );
  await section('catalogue cache, warm vs cold', () =>
    benchCatalogueCache(sandbox.info, portal.info),
  );
  await section('Chromium', async () => {
    const browser: Browser = await launchChromium();
    cleanups.push(() => browser.close());
    report.machine.chromium = browser.version();
    return benchBrowser(browser, sandbox.info, portal.info);
  });
} catch (error) {
  report.failures.push({
    section: 'setup',
    error: error instanceof Error ? error.message : String(error),
  });
} finally {
  await cleanUp();
}

report.durationS = (Date.now() - started) / 1000;
await writeReport(report);
process.exitCode = report.failures.length > 0 ? 1 : 0;
