import {
  embedWithHeldSession,
  eventsOf,
  expect,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

test('embedded form message: error, a handle older than its window, leads to one remint', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'framed');
  const held = await (
    await page.request.post(`${demo.url}/form-sessions/forms/form_microsoft/session`, { data: {} })
  ).json();
  // The handle's 120 s pass on the sandbox's clock, not on the test's.
  demo.sandbox?.control.advanceClock(121);

  await embedWithHeldSession(page, held);

  await expect.poll(() => element.locator('iframe').getAttribute('src')).not.toBe(held.embedUrl);
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.map((e) => e.detail.reason)).toEqual(['error']);
});
