import type { Page } from '@playwright/test';
import {
  embedWithHeldSession,
  eventsOf,
  expect,
  frameOf,
  messagesDelivered,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

const element = (page: Page) => page.locator('#embed-slot form-embed');
const frameSrc = (page: Page) => element(page).locator('iframe').getAttribute('src');

/** Opens the console on `form`, framed, and returns what a remint must change or keep. */
async function framed(page: Page, url: string, form = 'form:form_microsoft') {
  await recordEvents(page);
  await page.goto(url);
  await page.selectOption('#form', form);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  return { src: await frameSrc(page), history: await page.evaluate(() => history.length) };
}

/**
 * One remint for `reason`: events in order, a new embedUrl, and no history entry added by the
 * remint (a submit adds its own entry inside the frame before the lapse is noticed).
 */
async function expectOneRemint(page: Page, before: { src: string | null }, reason: string) {
  await expect.poll(() => frameSrc(page)).not.toBe(before.src);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  // A second remint could only come from a message of the new frame: wait for its page, then for
  // every message it posted to have been handled.
  await expect(submitOf(page)).toBeVisible();
  await messagesDelivered(page, element(page));
  const events = (await eventsOf(page)).map(
    (e) => `${e.type}${e.detail.reason ? `:${e.detail.reason}` : ''}`,
  );
  // A lapse (`expired`) also announces, once, that the form was reloaded.
  const notice = reason === 'expired' ? ['form-embed-notice:expired'] : [];
  expect(events.slice(-3 - notice.length)).toEqual([
    'form-embed-session',
    `form-embed-remint:${reason}`,
    ...notice,
    'form-embed-session',
  ]);
  expect(events.filter((e) => e.startsWith('form-embed-remint'))).toHaveLength(1);
  const remint = (await eventsOf(page)).find((e) => e.type === 'form-embed-remint');
  expect(await page.evaluate(() => history.length)).toBe(remint?.history);
  await expect(submitOf(page)).toBeVisible();
}

test('embedded form message: expired, noticed on submit, leads to one remint', async ({
  page,
  demo,
}) => {
  const before = await framed(page, demo.url);
  demo.sandbox?.control.expireSessions();
  await submitOf(page).click();
  await expectOneRemint(page, before, 'expired');
});

test('embedded form message: expired, noticed on reload, leads to one remint', async ({
  page,
  demo,
}) => {
  const before = await framed(page, demo.url);
  demo.sandbox?.control.expireSessions();
  await (await frameOf(element(page))).evaluate(() => location.reload());
  await expectOneRemint(page, before, 'expired');
  expect(await page.evaluate(() => history.length)).toBe(before.history);
});

test('embedded form message: expired, noticed on a Core lookup, leads to one remint', async ({
  page,
  demo,
}) => {
  const before = await framed(page, demo.url, 'core:new-starter');
  demo.sandbox?.control.expireSessions();
  const frame = page.frameLocator('#embed-slot form-embed iframe');
  await frame.getByLabel('Existing account to look up').fill('adele');
  await frame.getByRole('button', { name: 'Look up' }).click();
  await expectOneRemint(page, before, 'expired');
  expect(await page.evaluate(() => history.length)).toBe(before.history);
});

test('embedded form message: error, a reused handle, leads to one remint', async ({
  page,
  demo,
}) => {
  const before = await framed(page, demo.url);
  // The embedUrl the first frame already redeemed, handed out again.
  const src = before.src ?? '';
  await embedWithHeldSession(page, {
    embedUrl: src,
    embedOrigin: new URL(src).origin,
    provider: 'microsoft',
    expiresIn: 120,
  });
  await expect.poll(() => frameSrc(page)).not.toBe(before.src);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  await messagesDelivered(page, element(page));
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.map((e) => e.detail.reason)).toEqual(['error']);
  expect(await page.evaluate(() => history.length)).toBe(before.history);
});
