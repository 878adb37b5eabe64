import {
  embedWithHeldSession,
  eventsOf,
  expect,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

// Handles redeemable for 12 s instead of 120 s, so a handle can outlive its window in a test.
test.use({ demoOptions: { port: 0, mintsPerMinute: 1000, sandbox: { handleTtlSeconds: 12 } } });

test('embedded form message: error, a handle older than its window, leads to one remint', async ({
  page,
  demo,
}) => {
  test.setTimeout(45_000);
  await recordEvents(page);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'framed');
  const held = await (
    await page.request.post(`${demo.url}/form-sessions/forms/form_microsoft/session`, { data: {} })
  ).json();
  await page.waitForTimeout(13_000);

  await embedWithHeldSession(page, held);

  await expect.poll(() => element.locator('iframe').getAttribute('src')).not.toBe(held.embedUrl);
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.map((e) => e.detail.reason)).toEqual(['error']);
});
