import type { Page } from '@playwright/test';
import { expect, holdNextMint, submitOf, test } from './demo-fixture.js';
import { shoot } from './shoot.js';

const element = (page: Page) => page.locator('#embed-slot form-embed');
const status = (page: Page) => element(page).getByRole('status');
const loading = { en: 'Loading the form…', de: 'Das Formular wird geladen\u00a0…' };
const retrying = { en: 'Trying again…', de: 'Neuer Versuch\u00a0…' };
const offline = {
  en: 'You are offline. Waiting…',
  de: 'Sie sind offline. Warten auf die Verbindung\u00a0…',
};
const storm = {
  en: 'The form keeps failing to sign you in.',
  de: 'Die Anmeldung am Formular ist mehrmals fehlgeschlagen.',
};

for (const lang of ['en', 'de'] as const) {
  test(`screenshots of every state of <form-embed>, ${lang}`, async ({ page, demo }, testInfo) => {
    const stage = page.locator('.stage');
    const shot = (name: string) => shoot(stage, testInfo, `${lang}-${name}`);
    const fail = (code: string, retryable = false) =>
      demo.sandbox?.control.fail({
        kind: 'error',
        scope: 'session',
        code,
        ...(retryable ? { retryAfter: 3 } : {}),
      });
    const remint = () => page.locator('[data-action=remint]').click();

    // The page's clock stands still, so the waiting state's retry (Retry-After 3 s) never fires
    // while it is photographed and the next fault is armed, however loaded the machine is.
    await page.clock.pauseAt(Date.now() + 1_000);
    const mint = await holdNextMint(page);
    await page.goto(`${demo.url}/?lang=${lang}`);
    await expect(element(page)).toHaveAttribute('state', 'minting');
    // The status area opens two animation frames after the element connects (so that its first
    // message is announced); the paused clock holds animation frames too.
    await page.clock.runFor(100);
    await expect(status(page)).toHaveText(loading[lang]);
    await shot('1-minting');
    mint.release();
    await expect(element(page)).toHaveAttribute('state', 'framed');
    await expect(submitOf(page)).toBeVisible();
    await shot('2-framed');

    fail('microsoft_unavailable', true);
    await remint();
    await expect(element(page)).toHaveAttribute('state', 'waiting');
    await expect(status(page)).toHaveText(retrying[lang]);
    await shot('3-waiting');

    // Offline when the retry falls due: the element waits for the connection, then retries.
    await page.context().setOffline(true);
    await page.clock.runFor(3_300);
    await expect(status(page)).toHaveText(offline[lang]);
    await shot('4-offline');
    await page.context().setOffline(false);
    await expect(element(page)).toHaveAttribute('state', 'framed');

    // One failure of each group where trying again cannot help: no Try again.
    for (const [code, group] of [
      ['user_not_found', 'forbidden'],
      ['form_not_found', 'not-found'],
      ['invalid_api_key', 'invalid-request'],
    ]) {
      fail(code as string);
      await remint();
      await expect(element(page)).toHaveAttribute('state', 'failed');
      await expect(element(page).locator('[part=retry]')).toHaveCount(0);
      await shot(`5-failed-${group}`);
    }

    // A retryable failure that outlasts every attempt: unavailable, with Try again.
    demo.sandbox?.control.fail({
      kind: 'error',
      scope: 'session',
      code: 'internal_error',
      count: 4,
    });
    await remint();
    for (let wait = 0; wait < 3; wait++) {
      await expect(element(page)).toHaveAttribute('state', 'waiting');
      await page.clock.runFor(5_000);
    }
    await expect(element(page)).toHaveAttribute('state', 'failed');
    await expect(element(page).locator('[part=retry]')).toBeVisible();
    await shot('5-failed-unavailable');

    fail('unknown');
    await remint();
    await expect(element(page)).toHaveAttribute('state', 'failed');
    await expect(element(page).locator('[part=retry]')).toBeVisible();
    await shot('6-failed-with-retry');

    await element(page).locator('[part=retry]').click();
    await expect(element(page)).toHaveAttribute('state', 'framed');
    await expect(submitOf(page)).toBeVisible();
    demo.sandbox?.control.expireSessions();
    await submitOf(page).click();
    await expect(element(page).locator('[part=dismiss]')).toBeVisible();
    await expect(submitOf(page)).toBeVisible();
    await shot('7-lapse-notice');

    // Every redemption fails, so each new frame posts `error`: the remint bound stops the loop.
    demo.sandbox?.control.fail({
      kind: 'error',
      code: 'internal_error',
      scope: 'redeem',
      count: 100,
    });
    await remint();
    await expect(element(page)).toHaveAttribute('state', 'failed');
    await expect(status(page)).toContainText(storm[lang]);
    await shot('9-storm');
  });
}
