/**
 * `node --conditions=@form-embed/source --import tsx bench/ab-connect.ts <checkout> <checkout>…`: times
 * connect-to-src over a plain fetch, and over the frame floor, for the element bundle of each
 * checkout (a path to a clone or worktree of this repository, with its node_modules), run by
 * run in turn on the same bench portal and sandbox, so that load on the machine falls on all
 * alike. Each checkout has its own page, brought to the front for its runs.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBenchServers } from './bench-servers.js';
import { launchChromium, timedRun } from './browser-timings.js';
import { sandboxControl } from './sandbox-control.js';
import { median } from './summary.js';

const [WARMUP, RUNS] = [3, Number(process.env.RUNS ?? 40)];
const checkouts = process.argv.slice(2);
const bundles: string[] = [];
for (const checkout of checkouts) {
  const sizes = pathToFileURL(resolve(checkout, 'packages/element/test/bundle-size.ts'));
  const { measureBundle } = (await import(
    sizes.href
  )) as typeof import('../packages/element/test/bundle-size.js');
  bundles.push(new TextDecoder().decode((await measureBundle()).withLit.bytes));
}

const servers = await startBenchServers();
const { sandbox, portal } = servers;
const browser = await launchChromium();
try {
  const pages = await Promise.all(
    bundles.map(async (js) => {
      const page = await browser.newPage();
      await page.route('**/element.js', (route) =>
        route.fulfill({ contentType: 'text/javascript', body: js }),
      );
      await page.goto(portal.browserUrl);
      await page.waitForFunction(() => customElements.get('form-embed') !== undefined);
      return page;
    }),
  );
  const runs = bundles.map(() => [] as Awaited<ReturnType<typeof timedRun>>[]);
  for (let i = 0; i < WARMUP + RUNS; i++) {
    if (i % 20 === 0) await sandboxControl(sandbox).reset();
    for (const [n, page] of pages.entries()) {
      await page.bringToFront();
      const run = await timedRun(page);
      if (i >= WARMUP) runs[n]?.push(run);
    }
  }
  for (const [n, checkout] of checkouts.entries()) {
    const of = (pick: (run: Awaited<ReturnType<typeof timedRun>>) => number) =>
      median(runs[n]?.map(pick) ?? []).toFixed(3);
    console.log(
      `${checkout}: connect / fetch ${of((r) => r.connect / r.fetchMint)}, floor / fetch ${of((r) => r.floor / r.fetchMint)}, connect / floor ${of((r) => r.connect / r.floor)}; medians ${of((r) => r.connect)} / ${of((r) => r.fetchMint)} / ${of((r) => r.floor)} ms (${runs[n]?.length} runs)`,
    );
  }
} finally {
  await browser.close();
  await servers.stop();
}
