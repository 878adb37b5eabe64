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
  const mints = countMints(page);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'failed', { timeout: 15_000 });
  await expect(element.locator('[part=status]')).toContainText('keeps failing');
  await expect(page.locator('#session-info')).toHaveText('stopped: the form kept posting error');
  // `failed` ends the run: its frame is gone and no timer is left, so nothing can ask again.
  // The short settle only lets a (wrong) late request reach the counter.
  await expect(element.locator('iframe')).toHaveCount(0);
  const settled = mints.count;
  await page.waitForTimeout(300);
  expect(mints.count).toBe(settled);
  // The first mint, then MAX_REMINTS (4) remints, then the element stops.
  expect(mints.count).toBe(5);
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.length).toBe(mints.count - 1);
});
