import type { Page } from '@playwright/test';
import { expect, holdNextMint, submitOf, test } from './demo-fixture.js';
import { shoot } from './shoot.js';

const element = (page: Page) => page.locator('#embed-slot form-embed');

test('demo screenshots: minting, framed, waiting, failed and reminted', async ({
  page,
  demo,
}, testInfo) => {
  // Seven states on three pages, each photographed: more than one check's worth of time.
  test.setTimeout(60_000);
  // The page's clock stands still until the test moves it, so the Retry-After wait is
  // photographed whatever the machine's load; the first mint is held until its photo is taken.
  await page.clock.pauseAt(Date.now() + 1_000);
  const mint = await holdNextMint(page);
  await page.goto(demo.url);
  await expect(element(page)).toHaveAttribute('state', 'minting');
  await expect(page.locator('#state')).toHaveText('minting');
  // The status area opens two animation frames after the element connects (so that its first
  // message is announced); the paused clock holds animation frames too.
  await page.clock.runFor(100);
  await expect(element(page).getByRole('status')).toHaveText('Loading the form…');
  await shoot(page, testInfo, '1-minting');

  mint.release();
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  await shoot(page, testInfo, '2-framed');

  demo.sandbox?.control.fail({
    kind: 'error',
    scope: 'session',
    code: 'microsoft_unavailable',
    retryAfter: 3,
  });
  await page.locator('[data-action=remint]').click();
  await expect(element(page)).toHaveAttribute('state', 'waiting');
  await expect(element(page).getByRole('status')).toHaveText('Trying again…');
  await shoot(page, testInfo, '3-waiting');
  await page.clock.runFor(3_500); // Retry-After 3 s, plus the backoff's jitter of up to 10%
  await expect(element(page)).toHaveAttribute('state', 'framed');

  demo.sandbox?.control.fail({ kind: 'error', scope: 'session', code: 'user_not_found' });
  await page.locator('[data-action=remint]').click();
  await expect(element(page)).toHaveAttribute('state', 'failed');
  await shoot(page, testInfo, '4-failed');

  await page.locator('[data-action=remint]').click();
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  demo.sandbox?.control.expireSessions();
  await submitOf(page).click();
  await expect(page.locator('#log li[data-kind=form-embed-remint]')).toHaveCount(1);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  await shoot(page, testInfo, '5-reminted');

  await page.goto(`${demo.url}/several.html`);
  for (const id of ['embed-ms', 'embed-open', 'embed-core']) {
    await expect(page.locator(`#${id}`)).toHaveAttribute('state', 'framed');
    // Framed comes when the iframe is made: the photograph is of the forms, once they show.
    await expect(submitOf(page, `#${id}`)).toBeVisible();
  }
  await shoot(page, testInfo, '6-several');
  await page.goto(`${demo.url}/hostile.html`);
  await expect(page.locator('#target')).toHaveAttribute('state', 'framed');
  await expect(submitOf(page, '#target')).toBeVisible();
  await shoot(page, testInfo, '7-hostile');
});
