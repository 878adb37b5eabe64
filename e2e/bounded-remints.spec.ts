import { countMints, eventsOf, expect, recordEvents, test } from './demo-fixture.js';

test('bounded remints (docs/contract.md#embedded-form-message): a frame that keeps answering error makes a bounded number of mints', async ({
  page,
  demo,
}) => {
  // Every handle redemption fails, so every framed page posts `error` at once.
  demo.sandbox?.control.fail({
    kind: 'error',
    code: 'internal_error',
    scope: 'redeem',
    count: 1_000,
  });
  await recordEvents(page);
  // The page's own count of mint requests: a fetch started by a timer is counted in that timer's
  // task, so reading it after the clock has moved misses none.
  await page.addInitScript(() => {
    const counted = window.fetch;
    const calls = { mints: 0 };
    Object.assign(window, { mintCalls: calls });
    window.fetch = (input, init) => {
      if (String(input).endsWith('/session')) calls.mints += 1;
      return counted(input, init);
    };
  });
  await page.clock.install();
  const mints = countMints(page);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'failed', { timeout: 15_000 });
  await expect(element.locator('[part=status]')).toContainText('keeps failing');
  await expect(page.locator('#session-info')).toHaveText(
    'stopped: the form asked for new sessions too often (the remint bound)',
  );
  // `failed` ends the run: its frame is gone and no timer is left, so nothing can ask again,
  // not even once the remint window (30 min) and the longest retry wait (2 min) have passed.
  await expect(element.locator('iframe')).toHaveCount(0);
  await page.clock.runFor(35 * 60_000);
  const mintCalls = await page.evaluate(
    () => (window as unknown as { mintCalls: { mints: number } }).mintCalls.mints,
  );
  // The first mint, then MAX_REMINTS (4) remints, then the element stops.
  expect(mintCalls).toBe(5);
  expect(mints.count).toBe(5);
  await expect(element).toHaveAttribute('state', 'failed');
  // Each of the framed page's five requests is told; the fifth stopped the element instead.
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.length).toBe(mintCalls);
});
