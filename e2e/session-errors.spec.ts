import {
  isKnownSessionErrorCode,
  knownSessionErrorCodes,
  SessionErrorCodes,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol';
import type { Page } from '@playwright/test';
import { test as demoTest, eventsOf, expect, recordEvents } from './demo-fixture.js';

/**
 * One QA console per worker, its clock faked and standing still but when a case moves it: each
 * case frames a new `<form-embed>` in it through the console's "other form" field, as a page
 * adding an element does, instead of paying for a new browser context and page load per code.
 *
 * No element outlives its case. Each test starts by resetting the sandbox (the demo fixture),
 * which forgets every session: a frame still loading its embedUrl then finds its handle or
 * session gone, posts `error` as the contract says, and its element remints. That remint could
 * take the next case's fault, which is armed for the next mint, whoever makes it.
 */
const test = demoTest.extend<{ qaConsole: Page }, { consolePage: Page }>({
  consolePage: [
    async ({ browser, workerDemo }, use) => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await recordEvents(page);
      // Paused before the page loads, when the clock's time is still the epoch's, so that no
      // turn of the test can put the time paused at in the past ('Cannot fast-forward to the
      // past', which pausing a flowing clock at its time read a turn before risks).
      await page.clock.pauseAt(Date.now());
      await page.goto(workerDemo.url);
      await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
      await removeElements(page);
      await use(page);
      await context.close();
    },
    { scope: 'worker' },
  ],
  qaConsole: async ({ consolePage }, use) => {
    await consolePage.evaluate(() => {
      (window as unknown as { formEmbedEvents: unknown[] }).formEmbedEvents.length = 0;
    });
    await use(consolePage);
    await removeElements(consolePage);
  },
});

/** Removes the console's element, which ends its frame and any mint it has under way. */
async function removeElements(page: Page) {
  await page.evaluate(() => document.querySelector('#embed-slot')?.replaceChildren());
}

/** Frames a new element for form_microsoft, replacing the console's current one. */
async function embedAgain(page: Page) {
  await page.locator('#form-other').fill('form_microsoft');
  await page.locator('#form-other-go').click();
}

const RETRY_AFTER_S = 2;
const cases = [
  ...knownSessionErrorCodes.map((code) => ({
    code,
    status: SessionErrorCodes[code].status ?? UNKNOWN_CODE_STATUS,
    retryable: SessionErrorCodes[code].retryable,
    seen: code,
  })),
  // A refusal the service added after this release reaches the browser as it is, with the
  // service's status and retryable: read as `unknown`, and retried when the service says so.
  { code: 'seat_limit_reached', status: 409, retryable: false, seen: 'seat_limit_reached' },
  { code: 'google_unavailable', status: 503, retryable: true, seen: 'google_unavailable' },
  // Something not written as a code is `unknown`, with the status we give `unknown`.
  { code: 'Seat Limit!', status: 409, retryable: false, seen: 'unknown' },
];

// In one worker, the console of one: split over two, each started a browser, a demo and a
// console of its own for cases of half a second.
test.describe.configure({ mode: 'default' });

for (const { code, status, retryable, seen } of cases) {
  test(`SessionError ${code} (${status}, ${retryable ? 'retryable' : 'not retryable'}) shows its state, event and retry`, async ({
    qaConsole: page,
    demo,
  }) => {
    const operatorMessage = `operator detail for ${code}`;
    await expect(page.locator('#embed-slot form-embed')).toHaveCount(0);
    demo.sandbox?.control.fail({
      kind: 'error',
      scope: 'session',
      code,
      status,
      retryable,
      message: operatorMessage,
      ...(retryable ? { retryAfter: RETRY_AFTER_S } : {}),
    });
    // The page's time stands still, so the wait for Retry-After is seen (`waiting`) whatever the
    // machine's load, and passes only when the test moves the clock.
    await embedAgain(page);
    const element = page.locator('#embed-slot form-embed');
    const status_ = element.locator('[part=status]');

    await expect
      .poll(async () => (await eventsOf(page)).some((e) => e.type === 'form-embed-error'))
      .toBe(true);
    const error = (await eventsOf(page)).find((e) => e.type === 'form-embed-error');
    expect(error?.detail).toMatchObject({
      code: seen,
      status: seen === code ? status : UNKNOWN_CODE_STATUS,
      retryable,
      willRetry: retryable,
    });

    if (retryable) {
      expect(error?.detail.retryAfter).toBe(RETRY_AFTER_S);
      await expect(element).toHaveAttribute('state', 'waiting');
      await page.clock.runFor(RETRY_AFTER_S * 1000 - 1);
      await expect(element).toHaveAttribute('state', 'waiting');
      // The rest of the wait: Retry-After plus up to 10% of jitter (the element's retryDelay).
      await page.clock.runFor(RETRY_AFTER_S * 100 + 1);
      await expect(element).toHaveAttribute('state', 'framed');
      const session = (await eventsOf(page)).find((e) => e.type === 'form-embed-session');
      expect(session?.detail.attempt).toBe(2);
      expect((session?.at ?? 0) - (error?.at ?? 0)).toBeGreaterThanOrEqual(RETRY_AFTER_S * 1000);
    } else {
      await expect(element).toHaveAttribute('state', 'failed');
      // The status area opens two animation frames after the element connects, and the paused
      // clock holds animation frames too.
      await page.clock.runFor(100);
      // Try again only where trying again can change the outcome: unknown and newer codes.
      const tryAgain = status_.getByRole('button', { name: 'Try again' });
      const offered = code === 'unknown' || !isKnownSessionErrorCode(code);
      await expect(tryAgain).toHaveCount(offered ? 1 : 0);
      // The status area speaks from the second animation frame after the element connected,
      // which a mint refused at once can beat: its message is waited for, not read while empty.
      await expect(status_).not.toBeEmpty();
      const text = (await status_.textContent()) ?? '';
      expect(text.replace('Try again', '').trim().length).toBeGreaterThan(10);
      expect(text).not.toContain(operatorMessage);
      await expect(element.locator('iframe')).toHaveCount(0);
      // The fault was for one request only: the button, or the page's remint(), frames the form.
      await (offered ? tryAgain : page.locator('[data-action=remint]')).click();
      await expect(element).toHaveAttribute('state', 'framed');
    }
  });
}
