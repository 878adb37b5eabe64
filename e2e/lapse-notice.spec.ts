import type { Page } from '@playwright/test';
import { expectNoAxeViolations, liveSettingOfStatus } from './axe.js';
import {
  eventsOf,
  expect,
  openFramedConsole,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

const element = (page: Page) => page.locator('#embed-slot form-embed');
const notice =
  'Your session timed out and the form was reloaded. Entries not yet sent may need to be filled in again.';

test('a remint after the session expired frames the form with a polite, dismissible notice that input may be lost', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  await page.goto(demo.url);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  // The first frame comes with no notice.
  await expect(element(page).getByRole('status')).toHaveText('');

  const form = page.frameLocator('#embed-slot form-embed iframe');
  await form.getByLabel('Full name').fill('Adele Vance');
  await form.getByLabel('Details').fill('A laptop for the new starter');
  demo.sandbox?.control.expireSessions();
  await submitOf(page).click();

  const status = element(page).getByRole('status');
  await expect(status).toContainText(notice);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  expect(await liveSettingOfStatus(page, 'Your session timed out')).toBe('polite');
  // The reloaded form is empty: what the notice warns of.
  await expect(form.getByLabel('Full name')).toHaveValue('');
  await expectOneNoticePerLapse(page, 1);
  await expectNoAxeViolations(page);

  // The user was in the form: focus goes to Dismiss, so that the notice is read, not drowned
  // out by the focus moving into the new frame.
  const dismiss = element(page).getByRole('button', { name: 'Dismiss' });
  await expect(dismiss).toBeFocused();
  // A screen reader that lands on Dismiss says what it dismisses.
  await expect(dismiss).toHaveAccessibleDescription(notice);
  await dismiss.click();
  await expect(status).toHaveText('');
  await expect(element(page).locator('iframe')).toBeFocused();
  await expect(submitOf(page)).toBeVisible();

  // A second lapse brings its own notice, and only one.
  demo.sandbox?.control.expireSessions();
  await submitOf(page).click();
  await expect(status).toContainText(notice);
  await expectOneNoticePerLapse(page, 2);
});

test("a page's own notice, in the element's notice slot, is what describes Dismiss", async ({
  page,
  demo,
}) => {
  const embed = await openFramedConsole(page, demo);
  await embed.evaluate((element) => {
    const own = document.createElement('p');
    own.slot = 'notice';
    own.textContent = 'Your draft was not kept. Please start again.';
    element.append(own);
  });
  demo.sandbox?.control.expireSessions();
  await submitOf(page).click();
  const dismiss = embed.getByRole('button', { name: 'Dismiss' });
  await expect(dismiss).toBeVisible();
  await expect(dismiss).toHaveAccessibleDescription('Your draft was not kept. Please start again.');
});

/**
 * `form-embed-notice` fired once for each of `lapses`, each time after the remint and before the
 * new frame's `form-embed-session`; the demo's event log shows each.
 */
async function expectOneNoticePerLapse(page: Page, lapses: number) {
  const types = (await eventsOf(page)).map((e) => e.type);
  expect(types.slice(-3)).toEqual(['form-embed-remint', 'form-embed-notice', 'form-embed-session']);
  expect(types.filter((type) => type === 'form-embed-notice')).toHaveLength(lapses);
  await expect(page.locator('#log li[data-kind=form-embed-notice]')).toHaveCount(lapses);
}
