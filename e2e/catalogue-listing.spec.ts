import type { Demo } from '../demo/server.js';
import {
  countMints,
  expect,
  holdNextListing,
  openFramedConsole,
  signOut,
  test,
  workerDemoOptions,
} from './demo-fixture.js';

// The QA console lists the catalogue (`GET /form-sessions/forms`) for whoever is signed in: a
// listing answered late, or refused, must not leave the console showing what another user sees,
// or nothing a tester can recover from without reloading.

// The catalogue's reads uncached, so that the service's failures reach it at once: a worker demo
// of its own for this file.
test.use({ demoOptions: { ...workerDemoOptions, catalogueCacheTtlMs: 0 } });
// In one worker, not split over two: each would start a browser and a demo of its own for this
// file's four tests.
test.describe.configure({ mode: 'default' });

/**
 * The service refuses the key until the sandbox is reset: the catalogue's reads, and the form's
 * mints (not retried, as an unavailable service's would be).
 */
function refuseTheKey(demo: Demo) {
  demo.sandbox?.control.fail({
    kind: 'error',
    scope: 'api',
    code: 'invalid_api_key',
    status: 401,
    count: 1_000,
  });
}

test('a portal user’s listing answered after the next user’s does not replace it: the list and the form stay the last user’s', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const user = page.getByLabel('Portal user');
  const form = page.getByLabel('From the catalogue');
  const megans = await holdNextListing(page);
  await user.selectOption('megan');
  await megans.requested;
  // Nobody signed in sees the open form alone: listed while Megan's listing is still held.
  await user.selectOption('anonymous');
  await expect(form.locator('option')).toHaveText(['Feedback']);
  await expect(element).toHaveAttribute('form-id', 'form_open');
  megans.release();
  await megans.answered;
  // Megan's answer came last, for a user no longer signed in: nothing of it is shown.
  await expect(form.locator('option')).toHaveText(['Feedback']);
  await expect(element).toHaveAttribute('form-id', 'form_open');
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(user).toHaveValue('anonymous');
});

test('Sign in again whose listing is overtaken by another portal user’s leaves that user’s form to its one mint', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  await signOut(page);
  // Reloaded signed out, the console lists again on Sign in again (the user's list may be longer).
  await page.reload();
  await expect(element).toHaveAttribute('state', 'framed');
  const held = await holdNextListing(page);
  await page.getByRole('button', { name: 'Sign in again' }).click();
  // Sign in again's listing is on its way when Megan is picked: hers begins after it.
  await held.requested;
  const mints = countMints(page);
  await page.getByLabel('Portal user').selectOption('megan');
  // Megan's listing, answered, embedded her form, which was minted and framed.
  await expect.poll(() => mints.count).toBe(1);
  await expect(element).toHaveAttribute('state', 'framed');
  held.release();
  await held.answered;
  // The overtaken listing changes nothing and remints nothing: Megan's form was minted once.
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(page.getByLabel('Portal user')).toHaveValue('megan');
  expect(mints.count).toBe(1);
});

test.describe('a catalogue the service could not list', () => {
  test('still embeds the form the address names, and List again lists it once the service answers', async ({
    page,
    demo,
  }) => {
    refuseTheKey(demo);
    await page.goto(`${demo.url}/?form=form_microsoft`);
    const form = page.getByLabel('From the catalogue');
    await expect(form.locator('option')).toHaveText(['Catalogue unavailable (401)']);
    const element = page.locator('#embed-slot form-embed');
    await expect(element).toHaveAttribute('form-id', 'form_microsoft');
    await expect(element).toHaveAttribute('state', 'failed');

    demo.sandbox?.control.reset();
    await page.getByRole('button', { name: 'List again' }).click();
    await expect(form).toHaveValue('form:form_microsoft');
    await expect(page.locator('#catalogue-error')).toBeHidden();
    await expect(page.getByRole('button', { name: 'List again' })).toBeHidden();
    // The form on the page was left as it was: its own Try again, or Remint, frames it.
    await expect(element).toHaveAttribute('state', 'failed');
    await page.locator('[data-action=remint]').click();
    await expect(element).toHaveAttribute('state', 'framed');
  });

  test('with no form on the page, List again lists the catalogue and embeds its first form', async ({
    page,
    demo,
  }) => {
    refuseTheKey(demo);
    await page.goto(demo.url);
    await expect(page.locator('#catalogue-error')).toBeVisible();
    await expect(page.locator('#embed-slot form-embed')).toHaveCount(0);
    demo.sandbox?.control.reset();
    await page.getByRole('button', { name: 'List again' }).click();
    const element = page.locator('#embed-slot form-embed');
    await expect(element).toHaveAttribute('state', 'framed');
    await expect(page.getByLabel('From the catalogue')).toHaveValue(
      `form:${await element.getAttribute('form-id')}`,
    );
  });
});
