/**
 * `node --conditions=@form-embed/source --import tsx bench/frame-cost.ts`: what the frame floor
 * (`browser.frameFloor`) is made of, on the bench portal and sandbox. In plain script on the bench
 * page, with no element: the plain fetch, then the synchronous cost of an iframe inserted with its
 * embedUrl, of an empty iframe inserted, and of the embedUrl set on that empty iframe later; then
 * an empty iframe inserted while the mint is out, as an element that makes its frame early would,
 * with the time its answer then comes. Twice: under Playwright, as the bench runs, and on a page
 * that a bare Chromium opened, driven over its CDP pipe by one `Runtime.evaluate` and nothing
 * else, so that Playwright's own work in each new frame is left out.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { fullChromiumLaunchOptions } from '../scripts/chromium.mjs';
import { startBenchServers } from './bench-servers.js';
import { PORTAL_MINT_PATH } from './bench-setup.js';
import { launchChromium } from './browser-timings.js';
import { sandboxControl } from './sandbox-control.js';
import { median } from './summary.js';

const [WARMUP, RUNS] = [3, Number(process.env.RUNS ?? 21)];

/** The page's script: every step's milliseconds, a list per step. Steps wait out the last one. */
const steps = `(async () => {
  const settle = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const mint = () => fetch(${JSON.stringify(PORTAL_MINT_PATH)}, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}', cache: 'no-store',
  });
  const embedUrl = async (answer) => (await (await answer).json()).embedUrl;
  const framed = async (frame) => { await settle(700); frame.remove(); await settle(50); };
  const times = { fetch: [], insertWithSrc: [], insertEmpty: [], srcOnEmpty: [],
    emptyDuringMint: [], answerAfterEmpty: [] };
  for (let run = 0; run < ${WARMUP + RUNS}; run++) {
    const took = {};
    let start = performance.now();
    let url = await embedUrl(mint());
    took.fetch = performance.now() - start;
    await settle(50);
    const withSrc = Object.assign(document.createElement('iframe'), { src: url });
    start = performance.now();
    document.body.append(withSrc);
    took.insertWithSrc = performance.now() - start;
    await framed(withSrc);
    url = await embedUrl(mint());
    await settle(50);
    const empty = document.createElement('iframe');
    start = performance.now();
    document.body.append(empty);
    took.insertEmpty = performance.now() - start;
    await settle(50);
    start = performance.now();
    empty.src = url;
    took.srcOnEmpty = performance.now() - start;
    await framed(empty);
    start = performance.now();
    const answer = mint();
    const early = document.createElement('iframe');
    document.body.append(early);
    took.emptyDuringMint = performance.now() - start;
    early.src = await embedUrl(answer);
    took.answerAfterEmpty = performance.now() - start;
    await framed(early);
    if (run >= ${WARMUP}) for (const step in times) times[step].push(took[step]);
  }
  return times;
})()`;

type Times = Record<string, number[]>;

/** A bare Chromium on `url`, its one page driven over the CDP pipe (fds 3 and 4). */
async function bareChromium(url: string) {
  const profile = await mkdtemp(join(tmpdir(), 'form-embed-frame-cost-'));
  const child: ChildProcess = spawn(
    fullChromiumLaunchOptions.executablePath,
    [
      ...fullChromiumLaunchOptions.args,
      '--headless',
      '--remote-debugging-pipe',
      `--user-data-dir=${profile}`,
    ],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] },
  );
  const [toBrowser, fromBrowser] = [child.stdio[3] as Writable, child.stdio[4] as Readable];
  const waiting = new Map<number, (message: { result?: unknown; error?: unknown }) => void>();
  let buffered = '';
  fromBrowser.on('data', (chunk: Buffer) => {
    const messages = (buffered + chunk).split('\0');
    buffered = messages.pop() ?? '';
    for (const text of messages) {
      const message = JSON.parse(text);
      waiting.get(message.id)?.(message);
      waiting.delete(message.id);
    }
  });
  let lastId = 0;
  // biome-ignore lint/suspicious/noExplicitAny: CDP's answers, read field by field below.
  const send = (method: string, params: object, sessionId?: string): Promise<any> =>
    new Promise((resolve, reject) => {
      const id = ++lastId;
      waiting.set(id, (message) =>
        message.error ? reject(new Error(JSON.stringify(message.error))) : resolve(message.result),
      );
      toBrowser.write(`${JSON.stringify({ id, method, params, sessionId })}\0`);
    });
  const { targetId } = await send('Target.createTarget', { url });
  const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
  const evaluate = async (expression: string) => {
    const { result, exceptionDetails } = await send(
      'Runtime.evaluate',
      { expression, awaitPromise: true, returnByValue: true },
      sessionId,
    );
    if (exceptionDetails) throw new Error(JSON.stringify(exceptionDetails));
    return result.value;
  };
  while (!(await evaluate(`document.readyState === 'complete'`))) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const close = async () => {
    const exited = once(child, 'exit');
    child.kill();
    await exited;
    await rm(profile, { recursive: true, force: true });
  };
  return { evaluate, close };
}

function report(harness: string, times: Times) {
  console.log(`${harness}: medians of ${RUNS} runs, ms`);
  for (const [step, values] of Object.entries(times)) {
    console.log(`  ${step.padEnd(17)} ${median(values).toFixed(1).padStart(5)}`);
  }
}

const servers = await startBenchServers();
try {
  await sandboxControl(servers.sandbox).reset();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(servers.portal.browserUrl);
    report('Playwright', await page.evaluate(steps));
  } finally {
    await browser.close();
  }
  await sandboxControl(servers.sandbox).reset();
  const bare = await bareChromium(servers.portal.browserUrl);
  try {
    report('bare Chromium, one CDP call', await bare.evaluate(steps));
  } finally {
    await bare.close();
  }
} finally {
  await servers.stop();
}
