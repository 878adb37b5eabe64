import type { Page } from '@playwright/test';
import { expect, test } from './demo-fixture.js';

/** The bodies the console posts to the sandbox's latency control, from now on. */
function latencySent(page: Page): unknown[] {
  const sent: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('/demo/control/latency')) sent.push(request.postDataJSON());
  });
  return sent;
}

test('the latency box takes whole milliseconds in digits, and says so of anything else without sending it', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  const sent = latencySent(page);
  const box = page.getByLabel('Upstream latency (ms)');
  const set = page.getByRole('button', { name: 'Set', exact: true });
  for (const typed of ['1e3', '1.5', '-5', '0x10', '', '60001', '1,000']) {
    await box.fill(typed);
    await set.click();
    await expect(box, typed).toHaveAttribute('aria-invalid', 'true');
    await expect(box).toHaveAccessibleDescription(/whole number of milliseconds from 0 to 60000/);
    await expect(page.locator('#latency-error')).toBeVisible();
    expect(await box.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
  }
  await box.fill('1500');
  await expect(box, 'typing a right value clears the mark').not.toHaveAttribute('aria-invalid');
  await expect(page.locator('#latency-error')).toBeHidden();
  await set.click();
  await expect(page.locator('#control-result')).toHaveText('Done: latency');
  expect(sent, 'only the valid value reached the sandbox').toEqual([{ ms: 1500 }]);
});
