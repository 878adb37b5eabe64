import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { fullChromiumLaunchOptions } from '../scripts/chromium.mjs';
import { PORTAL_MINT_PATH, type PortalInfo, type SandboxInfo } from './bench-setup.js';
import { heapFigures, mintFigures } from './browser-figures.js';
import type { Figure } from './figure.js';
import { sandboxControl } from './sandbox-control.js';

const BROWSER_RUNS = {
  warmup: 3,
  timings: 21,
  remints: 5,
  connections: 5,
  cycles: 1000,
  cycleRounds: 5,
};

export async function launchChromium(): Promise<Browser> {
  return chromium.launch(fullChromiumLaunchOptions);
}

type Bench = {
  connect(): Promise<number>;
  fetchMint(): Promise<number>;
  frameFloor(): Promise<number>;
  armRemint(): void;
  remint: Promise<number>;
  clear(): void;
  cycles(n: number): Promise<void>;
  connectIdle(): Promise<void>;
};
declare const bench: Bench;

const submitButton = (page: Page, frame = 'form-embed iframe') =>
  page.frameLocator(frame).getByRole('button', { name: 'Submit' });

/** Requests to the mint path per element connection (each one waited on until its form shows). */
async function requestsPerConnection(page: Page): Promise<number[]> {
  let seen = 0;
  const count = (request: { url(): string }) => {
    if (new URL(request.url()).pathname === PORTAL_MINT_PATH) seen++;
  };
  page.on('request', count);
  const perConnection: number[] = [];
  try {
    for (let i = 0; i < BROWSER_RUNS.connections; i++) {
      const before = seen;
      await page.evaluate(() => bench.connect());
      await submitButton(page).waitFor();
      perConnection.push(seen - before);
    }
  } finally {
    page.off('request', count);
  }
  return perConnection;
}

/** Quiet time before each timed step, so that no step pays for the one before it. */
const SETTLE_MS = 50;

/**
 * One run: connect-to-src, a plain fetch and the frame floor, in turn. Each step starts on a
 * quiet page: the frame before it has loaded its form and been removed, and the page has
 * settled. Without that, a step pays for the teardown of the frame before it (a navigation
 * cancelled mid-way): the ratio swung from 1.0 to 1.8 with the page's place among others, for
 * the same element.
 */
export async function timedRun(page: Page) {
  const settle = () => page.waitForTimeout(SETTLE_MS);
  const connect = await page.evaluate(() => bench.connect());
  await submitButton(page, 'form-embed iframe').waitFor();
  await page.evaluate(() => bench.clear());
  await settle();
  const fetchMint = await page.evaluate(() => bench.fetchMint());
  await settle();
  const floor = await page.evaluate(() => bench.frameFloor());
  await submitButton(page, '.floor iframe').waitFor();
  await page.evaluate(() => bench.clear());
  await settle();
  return { connect, fetchMint, floor };
}

export type ConnectTimings = Awaited<ReturnType<typeof connectVersusFetch>>;
export type HeapRounds = Awaited<ReturnType<typeof cycles>>;

/** Timed runs after a warm-up, each figure in its own list. */
export async function connectVersusFetch(page: Page) {
  const runs = [];
  for (let i = 0; i < BROWSER_RUNS.warmup + BROWSER_RUNS.timings; i++) {
    const run = await timedRun(page);
    if (i >= BROWSER_RUNS.warmup) runs.push(run);
  }
  return {
    connect: runs.map((run) => run.connect),
    fetchMint: runs.map((run) => run.fetchMint),
    floor: runs.map((run) => run.floor),
  };
}

/** From the framed page's `expired` message reaching the window to the new frame's src. */
async function expiredToNewFrame(page: Page, sandbox: SandboxInfo): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < BROWSER_RUNS.remints; i++) {
    // A new element each time: the element allows 4 page-caused remints within 30 minutes.
    await page.evaluate(() => bench.connect());
    await submitButton(page).waitFor();
    await sandboxControl(sandbox).expireSessions();
    await page.evaluate(() => bench.armRemint());
    await submitButton(page).click();
    times.push(await page.evaluate(() => bench.remint));
  }
  await page.evaluate(() => bench.clear());
  return times;
}

async function windowListeners(cdp: CDPSession): Promise<number> {
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  if (!result.objectId) throw new Error('browser-timings: no handle on window');
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', {
    objectId: result.objectId,
  });
  await cdp.send('Runtime.releaseObject', { objectId: result.objectId });
  return listeners.length;
}

async function heapAfterGc(cdp: CDPSession): Promise<number> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  return (await cdp.send('Runtime.getHeapUsage')).usedSize;
}

/** Heap and window listeners before and after rounds of 1,000 connect/disconnect cycles. */
async function cycles(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await page.evaluate(() => bench.clear());
    const listenersBefore = await windowListeners(cdp);
    // The count must see the element's own listeners, or "unchanged" would prove nothing.
    await page.evaluate(() => bench.connectIdle());
    const listenersConnected = await windowListeners(cdp);
    await page.evaluate(() => bench.clear());
    const heapBefore = await heapAfterGc(cdp);
    const growth: number[] = [];
    let heap = heapBefore;
    for (let round = 0; round < BROWSER_RUNS.cycleRounds; round++) {
      await page.evaluate((n) => bench.cycles(n), BROWSER_RUNS.cycles);
      const after = await heapAfterGc(cdp);
      growth.push(after - heap);
      heap = after;
    }
    const listenersAfter = await windowListeners(cdp);
    return {
      listenersBefore,
      listenersConnected,
      listenersAfter,
      heapBefore,
      heapAfter: heap,
      growth,
    };
  } finally {
    await cdp.detach();
  }
}

/** Every in-browser figure, on one page of the bench portal in Chromium. */
export async function benchBrowser(
  browser: Browser,
  sandbox: SandboxInfo,
  portal: PortalInfo,
): Promise<Figure[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(portal.browserUrl);
    await page.waitForFunction(() => customElements.get('form-embed') !== undefined);
    await sandboxControl(sandbox).reset();

    const perConnection = await requestsPerConnection(page);
    const timings = await connectVersusFetch(page);
    await page.evaluate(() => bench.clear());
    const remint = await expiredToNewFrame(page, sandbox);
    const heap = await cycles(page);
    return [...mintFigures(perConnection, timings, remint), ...heapFigures(heap, BROWSER_RUNS)];
  } finally {
    await context.close();
  }
}
