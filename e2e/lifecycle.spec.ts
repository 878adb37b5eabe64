import type { Request } from '@playwright/test';
import { countMints, eventsOf, expect, recordEvents, test } from './demo-fixture.js';

test('loading="lazy": an embed below the fold mints only once scrolled into view', async ({
  page,
  demo,
}) => {
  const mints = countMints(page);
  await page.goto(`${demo.url}/lazy.html`);
  const element = page.locator('#lazy');
  await expect(element).toHaveAttribute('state', 'idle');
  // IntersectionObserver reports during a rendering update: after two animation frames it has
  // told the element where it is, and a mint would have begun (state `minting`).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await expect(element).toHaveAttribute('state', 'idle');
  expect(mints.count).toBe(0);
  await element.scrollIntoViewIfNeeded();
  await expect(element).toHaveAttribute('state', 'framed');
  expect(mints.count).toBe(1);
});

test('lifecycle: removing an element mid-mint frames nothing and logs no error', async ({
  page,
  demo,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await recordEvents(page);
  demo.sandbox?.control.setLatency(1_500);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'minting');
  const isMint = (request: Request) => request.url().endsWith('/session');
  const mintEnded = Promise.race([
    page.waitForEvent('requestfailed', isMint),
    page.waitForEvent('requestfinished', isMint),
  ]);
  await element.evaluate((node) => node.remove());
  await expect(page.locator('form-embed')).toHaveCount(0);
  // The mint ends (aborted, or answered after the sandbox's latency); anything it would frame
  // is framed in the same task as its answer, and 300 ms lets a wrong frame show.
  await mintEnded;
  await page.waitForTimeout(300);
  expect(await page.locator('iframe').count()).toBe(0);
  expect(await eventsOf(page)).toEqual([]);
  expect(problems).toEqual([]);
});
