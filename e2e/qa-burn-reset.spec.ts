import {
  expect,
  expectReframedAfterOneRemint,
  openFramedConsole,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

// The console's Burn and Reset buttons, which no other spec presses.

test('Burn reloads the frame: its handle, spent, makes the element remint and frame a new one', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  const element = await openFramedConsole(page, demo);
  await expect(page.getByText('Armed failures: none.')).toBeVisible();
  await expect(submitOf(page)).toBeVisible();
  const first = await element.locator('iframe').getAttribute('src');
  await page.getByRole('button', { name: 'Burn the handle (reload the frame)' }).click();
  await expect(page.locator('#control-result')).toHaveText('Done: burn (the frame reloaded)');
  await expect.poll(() => element.locator('iframe').getAttribute('src')).not.toBe(first);
  await expectReframedAfterOneRemint(page, element, 'error');
});

test('Reset leaves the sandbox, the latency box, the armed count and the form as they started', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  const result = page.locator('#control-result');
  const armed = page.getByRole('status').filter({ hasText: 'Armed failures' });
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(armed).toHaveText('Armed failures: none.');
  const box = page.getByLabel('Upstream latency (ms)');
  await box.fill('1500');
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(result).toHaveText('Done: upstream latency 1500 ms.');
  await page.selectOption('#fail-code', 'user_not_found');
  await page.getByRole('button', { name: 'Arm', exact: true }).click();
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');
  // A value the box refuses: Reset's 0 clears the mark too.
  await box.fill('1e3');
  await page.getByRole('button', { name: 'Set', exact: true }).click();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  const before = await element.locator('iframe').getAttribute('src');

  await page.getByRole('button', { name: 'Reset the sandbox' }).click();
  await expect(result).toHaveText('Done: reset');
  await expect(armed).toHaveText('Armed failures: none.');
  await expect(box).toHaveValue('0');
  await expect(box).not.toHaveAttribute('aria-invalid');
  await expect(page.locator('#latency-error')).toBeHidden();
  // Reminted after the reset (the fault it cleared would have failed a remint before it).
  await expect.poll(() => element.locator('iframe').getAttribute('src')).not.toBe(before);
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  expect(demo.sandbox?.control.pendingFaults()).toEqual({ api: 0, session: 0, redeem: 0 });
});
