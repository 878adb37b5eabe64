/**
 * `node --conditions=@form-embed/source --import tsx bench/trace-connect.ts`: where the time of "connect
 * <form-embed> to iframe src set" goes. On the bench portal and sandbox (own processes), it times
 * the runs the bench times (connect, a plain fetch of the same mint endpoint, the frame floor), then
 * records a Chromium trace of a few connects and prints the renderer main thread's work from
 * each connect to its `form-embed-session`, longest first.
 */
import { writeFileSync } from 'node:fs';
import { startBenchServers } from './bench-servers.js';
import { connectVersusFetch, launchChromium } from './browser-timings.js';
import { sandboxControl } from './sandbox-control.js';
import { median } from './summary.js';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tid: number;
  pid: number;
  args?: { data?: { requestId?: string; url?: string } };
}

declare const bench: { connect(): Promise<number> };

const servers = await startBenchServers();
const { sandbox, portal } = servers;
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  await page.goto(portal.browserUrl);
  await page.waitForFunction(() => customElements.get('form-embed') !== undefined);
  await sandboxControl(sandbox).reset();
  const { connect, fetchMint, floor } = await connectVersusFetch(page);
  const ratio = (times: number[], over: number[]) =>
    median(times.map((time, i) => time / (over[i] as number))).toFixed(3);
  console.log(
    `connect ${median(connect).toFixed(2)} ms, fetch ${median(fetchMint).toFixed(2)} ms, frame floor ${median(floor).toFixed(2)} ms; connect / fetch ${ratio(connect, fetchMint)}, floor / fetch ${ratio(floor, fetchMint)}, connect / floor ${ratio(connect, floor)}`,
  );

  await browser.startTracing(page, {
    categories: ['devtools.timeline', 'blink.user_timing', 'v8.execute', 'loading'],
  });
  for (let i = 0; i < 5; i++) {
    await page.evaluate(() => {
      performance.mark('connect');
      return bench.connect().then(() => performance.mark('framed'));
    });
  }
  const trace = JSON.parse((await browser.stopTracing()).toString()) as {
    traceEvents: TraceEvent[];
  };
  if (process.env.TRACE_OUT) writeFileSync(process.env.TRACE_OUT, JSON.stringify(trace));
  const marks = trace.traceEvents.filter((e) => e.name === 'connect' || e.name === 'framed');
  const main = marks[0];
  const work = new Map<string, number>();
  for (let i = 0; i + 1 < marks.length; i += 2) {
    const [from, to] = [marks[i] as TraceEvent, marks[i + 1] as TraceEvent];
    for (const event of trace.traceEvents) {
      if (event.pid !== main?.pid || event.tid !== main.tid || event.ph !== 'X') continue;
      if (event.ts < from.ts || event.ts > to.ts) continue;
      work.set(event.name, (work.get(event.name) ?? 0) + (event.dur ?? 0) / 1000);
    }
    console.log(`connect ${i / 2 + 1}: ${((to.ts - from.ts) / 1000).toFixed(2)} ms`);
  }
  // From the mint's answer fully received to the frame's src set: the element's own time.
  const mints = new Set(
    trace.traceEvents
      .filter((e) => e.name === 'ResourceSendRequest' && e.args?.data?.url?.endsWith('/session'))
      .map((e) => e.args?.data?.requestId),
  );
  const finishes = trace.traceEvents.filter(
    (e) => e.name === 'ResourceFinish' && mints.has(e.args?.data?.requestId),
  );
  const afterAnswer = finishes.map((finish) => {
    const framed = marks.find((m) => m.name === 'framed' && m.ts > finish.ts);
    return ((framed?.ts ?? NaN) - finish.ts) / 1000;
  });
  console.log(
    `answer received to src set: ${afterAnswer.map((ms) => ms.toFixed(2)).join(', ')} ms`,
  );
  for (const [name, ms] of [...work].sort((a, b) => b[1] - a[1]).slice(0, 20)) {
    console.log(`  ${(ms / 5).toFixed(2).padStart(7)} ms per connect  ${name}`);
  }
  // Where the JavaScript time goes: a sampling profile of 10 connects, self time per function.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  for (let i = 0; i < 10; i++) await page.evaluate(() => bench.connect());
  const { profile } = await cdp.send('Profiler.stop');
  const interval = (profile.endTime - profile.startTime) / (profile.samples?.length || 1) / 1000;
  const hits = new Map<number, number>();
  for (const id of profile.samples ?? []) hits.set(id, (hits.get(id) ?? 0) + 1);
  const self = new Map<string, number>();
  for (const node of profile.nodes) {
    const { functionName, url, lineNumber, columnNumber } = node.callFrame;
    const where = `${functionName || '(anonymous)'} ${url.split('/').pop()}:${lineNumber}:${columnNumber}`;
    self.set(where, (self.get(where) ?? 0) + (hits.get(node.id) ?? 0) * interval);
  }
  console.log('JavaScript self time per connect:');
  for (const [where, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
    console.log(`  ${(ms / 10).toFixed(3).padStart(7)} ms  ${where}`);
  }
} finally {
  await browser.close();
  await servers.stop();
}
