import {
  countMints,
  eventsOf,
  expect,
  frameOf,
  holdNextMint,
  messagesDelivered,
  recordEvents,
  submitOf,
  test,
} from './demo-fixture.js';

test('loading="lazy": an embed below the fold mints only once scrolled into view', async ({
  page,
  demo,
}) => {
  const mints = countMints(page);
  await page.goto(`${demo.url}/lazy.html`);
  const element = page.locator('#lazy');
  await expect(element).toHaveAttribute('state', 'idle');
  // IntersectionObserver reports during a rendering update: after two animation frames it has
  // told the element where it is, and a mint would have begun (state `minting`).
  await page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
  await expect(element).toHaveAttribute('state', 'idle');
  expect(mints.count).toBe(0);
  await element.scrollIntoViewIfNeeded();
  await expect(element).toHaveAttribute('state', 'framed');
  expect(mints.count).toBe(1);
});

test('lifecycle: removing an element mid-mint aborts its mint, frames nothing and logs no error', async ({
  page,
  demo,
}) => {
  const problems: string[] = [];
  page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
  page.on('pageerror', (error) => problems.push(error.message));
  await recordEvents(page);
  const mint = await holdNextMint(page);
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'minting');
  const aborted = page.waitForEvent('requestfailed', {
    predicate: (request) => request.url().endsWith('/session'),
    timeout: 5_000,
  });
  await element.evaluate((node) => node.remove());
  // The browser gave up the held request: no answer can reach the element, and the abort's own
  // rejection was handled in the task that removed it.
  await aborted;
  mint.release();
  await expect(page.locator('form-embed')).toHaveCount(0);
  expect(await page.locator('iframe').count()).toBe(0);
  expect(await eventsOf(page)).toEqual([]);
  expect(problems).toEqual([]);
});

for (const how of ['Back', 'reload'] as const) {
  test(`lifecycle: ${how === 'Back' ? 'Back to' : 'reloading'} a page not kept in the back/forward cache mints afresh and frames the new session, not the old frame's page from history`, async ({
    page,
    demo,
  }) => {
    await recordEvents(page);
    await page.goto(`${demo.url}/lazy.html`);
    await page.goto(demo.url);
    const element = page.locator('#embed-slot form-embed');
    await expect(element).toHaveAttribute('state', 'framed');
    // The frame navigates by itself (a submit): its history entry holds the submitted page.
    await submitOf(page).click();
    await expect(
      page.frameLocator('#embed-slot form-embed iframe').getByText('Submitted', { exact: true }),
    ).toBeVisible();
    if (how === 'Back') {
      await page.goto(`${demo.url}/lazy.html`);
      await page.goBack();
    } else await page.reload();
    await expect(element).toHaveAttribute('state', 'framed');
    await expect(submitOf(page)).toBeVisible();
    await messagesDelivered(page, element);
    // A page the frame restored from history would be the submitted one, or the spent handle's
    // sign-in error, which posts `error` and remints.
    expect((await eventsOf(page)).map((e) => e.type)).toEqual(['form-embed-session']);
    expect((await frameOf(element)).url()).toMatch(/\/f\/form_microsoft\/s\/fss_/);
    expect(demo.sandbox?.control.stats()['POST /api/v1/forms/{formId}/session']).toBe(2);
  });
}
