/**
 * `node --conditions=source --import tsx bench/ab-connect.ts <checkout> <checkout>…`: times
 * connect-to-src over a plain fetch for the element bundle of each checkout (a path to a clone
 * or worktree of this repository), interleaved pair by pair on the same bench portal and sandbox,
 * so that load on the machine falls on all alike.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startBenchServers } from './bench-servers.js';
import { launchChromium } from './browser-timings.js';
import { sandboxControl } from './sandbox-control.js';

declare const bench: { connect(): Promise<number>; fetchMint(): Promise<number>; clear(): void };
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN;
const [WARMUP, PAIRS] = [3, 60];
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
  const ratios: number[][] = bundles.map(() => []);
  for (let i = 0; i < WARMUP + PAIRS; i++) {
    if (i % 20 === 0) await sandboxControl(sandbox, 'reset');
    for (const [n, page] of pages.entries()) {
      const connect = await page.evaluate(() => bench.connect());
      await page.evaluate(() => bench.clear());
      const plain = await page.evaluate(() => bench.fetchMint());
      if (i >= WARMUP) ratios[n]?.push(connect / plain);
    }
  }
  for (const [n, r] of ratios.entries()) {
    console.log(
      `${process.argv[n + 2]}: median ratio ${median(r).toFixed(3)} of ${r.length} pairs`,
    );
  }
} finally {
  await browser.close();
  await servers.stop();
}
