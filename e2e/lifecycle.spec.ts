import { countMints, eventsOf, expect, recordEvents, test } from './demo-fixture.js';

test('loading="lazy": an embed below the fold mints only once scrolled into view', async ({
  page,
  demo,
}) => {
  const mints = countMints(page);
  await page.goto(`${demo.url}/lazy.html`);
  const element = page.locator('#lazy');
  await page.waitForTimeout(1_500);
  expect(mints.count).toBe(0);
  await expect(element).toHaveAttribute('state', 'idle');
  await element.scrollIntoViewIfNeeded();
  await expect(element).toHaveAttribute('state', 'framed');
  expect(mints.count).toBe(1);
});

test('DESIGN lifecycle: removing an element mid-mint frames nothing and logs no error', async ({
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
  await element.evaluate((node) => node.remove());
  await expect(page.locator('form-embed')).toHaveCount(0);
  await page.waitForTimeout(2_500);
  expect(await page.locator('iframe').count()).toBe(0);
  expect(await eventsOf(page)).toEqual([]);
  expect(problems).toEqual([]);
});
