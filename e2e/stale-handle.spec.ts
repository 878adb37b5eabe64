import {
  embedWithHeldSession,
  expect,
  expectReframedAfterOneRemint,
  openFramedConsole,
  recordEvents,
  test,
} from './demo-fixture.js';

test('embedded form message: error, a handle older than its window, leads to one remint', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  const element = await openFramedConsole(page, demo);
  const held = await (
    await page.request.post(`${demo.url}/form-sessions/forms/form_microsoft/session`, { data: {} })
  ).json();
  // The handle's 120 s pass on the sandbox's clock, not on the test's.
  demo.sandbox?.control.advanceClock(121);

  await embedWithHeldSession(page, held);

  await expect.poll(() => element.locator('iframe').getAttribute('src')).not.toBe(held.embedUrl);
  await expectReframedAfterOneRemint(page, element, 'error');
});
