import type { Locator, Page } from '@playwright/test';
import type { Demo } from '../demo/server.js';
import {
  eventsOf,
  expect,
  frameOf,
  messagesDelivered,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

/** The hostile page, events recorded, once its `#target` element has framed; and that frame's src. */
async function framedHostilePage(page: Page, demo: Demo) {
  await recordEvents(page);
  await page.goto(`${demo.url}/hostile.html`);
  const element = page.locator('#target');
  await expect(element).toHaveAttribute('state', 'framed');
  const src = await element.locator('iframe').getAttribute('src');
  return { element, src };
}

/** No remint was asked for or made: the element is framed, on the same src. */
async function expectNoRemint(page: Page, element: Locator, src: string | null) {
  expect((await eventsOf(page)).filter((e) => e.type === 'form-embed-remint')).toEqual([]);
  await expect(element).toHaveAttribute('state', 'framed');
  expect(await element.locator('iframe').getAttribute('src')).toBe(src);
}

test('embedded form message (docs/contract.md#embedded-form-message): forged messages never cause a remint', async ({
  page,
  demo,
}) => {
  const { element, src } = await framedHostilePage(page, demo);
  const received: unknown[] = [];
  await page.exposeFunction('sawMessage', (data: unknown) => received.push(data));
  await page.evaluate(() =>
    addEventListener('message', (event) =>
      (window as unknown as { sawMessage(data: unknown): void }).sawMessage(event.data),
    ),
  );

  // From a frame on another origin: the exact message, an extra field, a wrong type, a string.
  const hostile = page.frameLocator('#hostile-frame');
  for (const name of [/exact message/, /extra field/, /wrong type/, /string/]) {
    await hostile.getByRole('button', { name }).click();
  }
  // From the page itself (the portal's origin).
  await page.getByRole('button', { name: 'Post a forged message from the page' }).click();
  // A real `error` from the embed origin, posted by a frame that is not the element's.
  await page.getByRole('button', { name: 'Frame a reused embedUrl beside the element' }).click();
  await expect(
    page.frameLocator('iframe[title="Stolen embed, second use"]').getByRole('heading', {
      name: 'We could not sign you in',
    }),
  ).toBeVisible();

  // The element's listener was added when it framed, before this test's: once the test's listener
  // has seen all six, the element has handled them too, and it handles a message synchronously.
  await expect.poll(() => received.length).toBeGreaterThanOrEqual(6);
  await expectNoRemint(page, element, src);
});

/**
 * Opens the Several embeds page, its events recorded, once each of its three forms shows; the
 * srcs of their frames, in the page's order (ms, open, core).
 */
async function openSeveral(page: Page, demo: Demo) {
  await recordEvents(page);
  await page.goto(`${demo.url}/several.html`);
  const ids = ['embed-ms', 'embed-open', 'embed-core'];
  for (const id of ids) {
    await expect(page.locator(`#${id}`)).toHaveAttribute('state', 'framed');
    await expect(submitOf(page, `#${id}`)).toBeVisible();
  }
  return Promise.all(ids.map((id) => page.locator(`#${id} iframe`).getAttribute('src')));
}

test('embedded form message (docs/contract.md#embedded-form-message): several embeds on a page never react to each other', async ({
  page,
  demo,
}) => {
  const srcs = await openSeveral(page, demo);

  demo.sandbox?.control.expireSessions();
  await submitOf(page, '#embed-open').click();
  await expect.poll(() => page.locator('#embed-open iframe').getAttribute('src')).not.toBe(srcs[1]);
  await expect(page.locator('#embed-open')).toHaveAttribute('state', 'framed');
  // The `expired` message reached every element's listener in the same dispatch; what is left
  // to see is the new frame's own messages.
  await expect(submitOf(page, '#embed-open')).toBeVisible();
  await messagesDelivered(page, page.locator('#embed-open'));

  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.map((e) => e.target)).toEqual(['embed-open']);
  expect(await page.locator('#embed-ms iframe').getAttribute('src')).toBe(srcs[0]);
  expect(await page.locator('#embed-core iframe').getAttribute('src')).toBe(srcs[2]);
});

test('several embeds: each card’s Burn reloads that frame alone, and only its element remints (reason error)', async ({
  page,
  demo,
}) => {
  const srcs = await openSeveral(page, demo);
  await page
    .getByRole('region', { name: 'Feedback' })
    .getByRole('button', { name: 'Burn its handle (reload the frame)' })
    .click();
  await expect.poll(() => page.locator('#embed-open iframe').getAttribute('src')).not.toBe(srcs[1]);
  await expect(submitOf(page, '#embed-open')).toBeVisible();
  await messagesDelivered(page, page.locator('#embed-open'));
  const remints = (await eventsOf(page)).filter((e) => e.type === 'form-embed-remint');
  expect(remints.map((e) => [e.target, e.detail.reason])).toEqual([['embed-open', 'error']]);
  expect(await page.locator('#embed-ms iframe').getAttribute('src')).toBe(srcs[0]);
  expect(await page.locator('#embed-core iframe').getAttribute('src')).toBe(srcs[2]);
});

test("embedded form message (docs/contract.md#embedded-form-message): the element's own frame, navigated to another origin, cannot make it remint", async ({
  page,
  demo,
}) => {
  const { element, src } = await framedHostilePage(page, demo);
  // The frame's window stays the element's frame (`event.source` matches); only its origin is
  // wrong. A page could get there through a link or a redirect inside the form.
  const hostileUrl = `http://hostile.localhost:${new URL(demo.url).port}/hostile-frame.html`;
  await (await frameOf(element)).goto(hostileUrl);
  await page
    .frameLocator('#target iframe')
    .getByRole('button', { name: /exact message/ })
    .click();
  // The frame's next message arrives after the forged one: both have reached every listener.
  await messagesDelivered(page, element);
  await expectNoRemint(page, element, src);
});
