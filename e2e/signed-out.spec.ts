import es from '@form-embed/element/locales/es';
import fr from '@form-embed/element/locales/fr';
import it from '@form-embed/element/locales/it';
import nl from '@form-embed/element/locales/nl';
import type { Page } from '@playwright/test';
import { expectNoAxeViolations } from './axe.js';
import {
  eventsOf,
  expect,
  messagesDelivered,
  recordEvents,
  reloadFrame,
  signIn as signInAs,
  signOut,
  submitOf,
  test,
} from './demo-fixture.js';
import { shoot } from './shoot.js';

const element = (page: Page) => page.locator('#embed-slot form-embed');

const signInSaid = {
  en: 'Sign in to open this form.',
  de: 'Melden Sie sich an, um dieses Formular zu öffnen.',
};

for (const lang of ['en', 'de'] as const) {
  test(`signed out while the form is open: the next remint asks to sign in (${lang}), and signing in plus remint() frames it again`, async ({
    page,
    demo,
  }, testInfo) => {
    await recordEvents(page);
    await page.goto(`${demo.url}/?lang=${lang}`);
    await expect(element(page)).toHaveAttribute('state', 'framed');
    await expect(submitOf(page)).toBeVisible();

    await signOut(page);
    demo.sandbox?.control.expireSessions();
    await submitOf(page).click();

    await expect(element(page)).toHaveAttribute('state', 'failed');
    const status = element(page).getByRole('status');
    await expect(status).toHaveText(signInSaid[lang]);
    await expect(status.getByRole('button')).toHaveCount(0);
    await shoot(page.locator('.stage'), testInfo, `${lang}-8-signed-out`);
    // The other shipped packs say it too, photographed by switching the console's language.
    if (lang === 'en') {
      for (const [other, pack] of Object.entries({ fr, es, it, nl })) {
        await page.selectOption('#lang', other);
        await expect(status).toHaveText(pack.sign_in_required);
        await shoot(page.locator('.stage'), testInfo, `${other}-8-signed-out`);
      }
      await page.selectOption('#lang', lang);
    }
    const error = (await eventsOf(page)).findLast((e) => e.type === 'form-embed-error');
    expect(error?.detail).toMatchObject({
      code: 'sign_in_required',
      status: 401,
      willRetry: false,
    });
    await expectNoAxeViolations(page);

    // The page signs the user back in, then calls remint().
    await page.getByRole('button', { name: 'Sign in again' }).click();
    await expect(element(page)).toHaveAttribute('state', 'framed');
    await expect(submitOf(page)).toBeVisible();
  });
}

test('signed out: a form that needs no user (authType none) is still framed, with no handle; Burn says it has none to burn, and nothing remints', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  await page.goto(demo.url);
  await page.selectOption('#form', 'form:form_open');
  await expect(element(page)).toHaveAttribute('state', 'framed');
  const sessions = async () =>
    (await eventsOf(page)).filter((e) => e.type === 'form-embed-session').length;
  const before = await sessions();
  await signOut(page);
  await page.locator('[data-action=remint]').click();
  await expect.poll(sessions).toBe(before + 1);
  const session = (await eventsOf(page)).findLast((e) => e.type === 'form-embed-session');
  expect(session?.detail).toMatchObject({ provider: 'none', expiresIn: 0 });
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();

  // Reloaded, a frame with no handle opens its form again: no error to remint on.
  await reloadFrame(element(page), () =>
    page.getByRole('button', { name: 'Burn the handle (reload the frame)' }).click(),
  );
  await expect(page.locator('#control-result')).toHaveText(
    'Done: the frame reloaded; this form has no handle (provider none), so no remint.',
  );
  await expect(submitOf(page)).toBeVisible();
  await messagesDelivered(page, element(page));
  const events = (await eventsOf(page)).map((e) => e.type);
  expect(events.filter((type) => type === 'form-embed-remint')).toEqual([]);
  expect(events.filter((type) => type === 'form-embed-session')).toHaveLength(before + 1);
  await expect(element(page)).toHaveAttribute('state', 'framed');
});

test('several embeds signed out: the card of the form with no handle offers to reload its frame, not to burn a handle', async ({
  page,
  demo,
}) => {
  await signInAs(page, demo, 'anonymous');
  await page.goto(`${demo.url}/several.html`);
  const card = (name: string) => page.getByRole('region', { name });
  await expect(page.locator('#embed-open')).toHaveAttribute('state', 'framed');
  await expect(card('Feedback').getByRole('button')).toHaveText(
    'Reload the frame (no handle to burn)',
  );
  // The others need a user: refused, they were never framed, and keep the label they started with.
  await expect(page.locator('#embed-ms')).toHaveAttribute('state', 'failed');
  await expect(card('IT request').getByRole('button')).toHaveText(
    'Burn its handle (reload the frame)',
  );
});

test('the console’s Sign out says nobody is signed in and keeps keyboard focus; Sign in again says who is back', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  await expect(element(page)).toHaveAttribute('state', 'framed');
  const expectation = page.locator('#persona-expect');
  await expect(expectation).toHaveText('Microsoft account: signs in on Microsoft and Core forms');

  // By keyboard: the button pressed hides itself, so focus must go to the one in its place.
  await page.getByRole('button', { name: 'Sign out' }).focus();
  await page.keyboard.press('Enter');
  const signInAgain = page.getByRole('button', { name: 'Sign in again' });
  await expect(signInAgain).toBeFocused();
  // The picker still names Adele (whom Sign in again brings back): the line below it says that
  // nobody is signed in now.
  await expect(expectation).toHaveText(
    'Signed out: the portal has nobody signed in. Sign in again signs Adele Vance, Contoso back in.',
  );

  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeFocused();
  await expect(expectation).toHaveText('Microsoft account: signs in on Microsoft and Core forms');
  await expect(element(page)).toHaveAttribute('state', 'framed');
});

test('a reload after Sign out keeps the portal signed out, with Sign in again for the user who signed out; after Sign in again a reload keeps that user', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  const user = page.getByLabel('Portal user');
  const expectation = page.locator('#persona-expect');
  const signInAgain = page.getByRole('button', { name: 'Sign in again' });
  await page.getByLabel('From the catalogue').selectOption('form:form_open');
  await user.selectOption('alex');
  await expect(expectation).toHaveText('Google Workspace account: signs in on Google forms');
  await signOut(page);

  // As a portal's session cookie would: the page reloaded is as the page left.
  await page.reload();
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(user).toHaveValue('alex');
  await expect(expectation).toHaveText(
    'Signed out: the portal has nobody signed in. Sign in again signs Alex Wilber, Contoso back in.',
  );
  await expect(signInAgain).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeHidden();
  const config = await page.request.get(`${demo.url}/demo/config`);
  expect((await config.json()).persona, 'the portal has nobody signed in').toBe('anonymous');

  await signInAgain.click();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  // Signed out, the catalogue listed the open form only: Alex's list is back.
  await expect(page.locator('#form option[value="form:form_google"]')).toHaveCount(1);
  await page.reload();
  await expect(user).toHaveValue('alex');
  await expect(expectation).toHaveText('Google Workspace account: signs in on Google forms');
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expect(signInAgain).toBeHidden();
});

test('a reload after Sign out keeps the form the tester chose on the page, though nobody’s list has it; Sign in again frames it again', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  await page.getByLabel('Portal user').selectOption('alex');
  const form = page.getByLabel('From the catalogue');
  await form.selectOption('form:form_google');
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await signOut(page);

  await page.reload();
  // The page as the tester left it: Alex's Google form, which a signed-out mint cannot open.
  await expect(element(page)).toHaveAttribute('form-id', 'form_google');
  await expect(element(page).getByRole('status')).toHaveText(signInSaid.en);
  await page.getByRole('button', { name: 'Sign in again' }).click();
  await expect(element(page)).toHaveAttribute('state', 'framed');
  await expect(element(page)).toHaveAttribute('form-id', 'form_google');
  await expect(form).toHaveValue('form:form_google');
});
