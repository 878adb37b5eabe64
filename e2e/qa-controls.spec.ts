import { readdirSync } from 'node:fs';
import type { Messages } from '@form-embed/element';
import ar from '@form-embed/element/locales/ar';
import type { Page } from '@playwright/test';
import {
  expect,
  expectReframedAfterOneRemint,
  openFramedConsole,
  pickPortalUser,
  recordEvents,
  reloadFrame,
  submitOf,
  test,
} from './demo-fixture.js';

/** The bodies the console posts to the sandbox's latency control, from now on. */
function controlSent(page: Page, action: string): unknown[] {
  const sent: unknown[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith(`/demo/control/${action}`)) sent.push(request.postDataJSON());
  });
  return sent;
}

/** The latency box, its Set button, and the bodies posted to the latency control from now on. */
function latencyControls(page: Page) {
  return {
    sent: controlSent(page, 'latency'),
    box: page.getByLabel('Upstream latency (ms)'),
    set: page.getByRole('button', { name: 'Set', exact: true }),
  };
}

// The sandbox controls' boxes of whole numbers (demo/whole-number-box.ts makes both).
for (const control of [
  {
    box: 'latency box',
    label: 'Upstream latency (ms)',
    button: 'Set',
    action: 'latency',
    rule: 'whole number of milliseconds from 0 to 60000',
    refused: ['1e3', '1.5', '-5', '0x10', '', '60001', '1,000'],
    // Its least, which turns latency off, and one pasted with spaces around it.
    taken: [
      { typed: '0', body: { ms: 0 }, done: 'Done: upstream latency 0 ms.' },
      { typed: ' 1500 ', body: { ms: 1500 }, done: 'Done: upstream latency 1500 ms.' },
    ],
  },
  {
    box: 'clock box',
    label: 'Move the sandbox clock forward',
    button: 'Advance',
    action: 'advance-clock',
    rule: 'whole number of seconds from 1 to 86400',
    refused: ['0', '1.5', '-5', '1e3', '', '86401'],
    taken: [
      { typed: '1', body: { seconds: 1 }, done: 'Done: the sandbox clock moved 1 s forward.' },
      {
        typed: ' 121 ',
        body: { seconds: 121 },
        done: 'Done: the sandbox clock moved 121 s forward.',
      },
    ],
  },
]) {
  test(`the ${control.box} takes a ${control.rule}, in digits, and says so of anything else without sending it`, async ({
    page,
    demo,
  }) => {
    await openFramedConsole(page, demo);
    const sent = controlSent(page, control.action);
    const box = page.getByLabel(control.label);
    const button = page.getByRole('button', { name: control.button, exact: true });
    const error = page.locator(`#${await box.getAttribute('id')}-error`);
    const [right] = control.taken;
    for (const typed of control.refused) {
      // From an unmarked box: a marked one checks again as it is typed in, before any click.
      if (right) await box.fill(right.typed);
      await box.fill(typed);
      await expect(box, typed).not.toHaveAttribute('aria-invalid');
      await button.click();
      await expect(box, typed).toHaveAttribute('aria-invalid', 'true');
      await expect(box).toHaveAccessibleDescription(new RegExp(control.rule));
      await expect(error).toBeVisible();
      await expect(box).toBeFocused();
      expect(await box.evaluate((input: HTMLInputElement) => input.validity.valid)).toBe(false);
    }
    for (const { typed, done } of control.taken) {
      await box.fill(typed);
      await expect(box, 'typing a right value clears the mark').not.toHaveAttribute('aria-invalid');
      await expect(error).toBeHidden();
      await button.click();
      await expect(page.locator('#control-result')).toHaveText(done);
    }
    expect(sent, 'only the valid values reached the sandbox').toEqual(
      control.taken.map(({ body }) => body),
    );
  });
}
test('the Arm control shows how many failures are armed, counting down as mints use them', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const armed = page.getByRole('status').filter({ hasText: 'Armed failures' });
  await expect(armed).toHaveText('Armed failures: none.');
  await page.selectOption('#fail-code', 'user_not_found');
  const arm = page.getByRole('button', { name: 'Arm', exact: true });
  await arm.click();
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');
  await arm.click();
  await expect(armed).toHaveText('Armed failures: 2 (the next 2 mints fail).');

  const remint = page.getByRole('button', { name: 'Remint now' });
  await remint.click();
  await expect(element).toHaveAttribute('state', 'failed');
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');

  // A mint from elsewhere (another page or tab of the portal) uses one up as well.
  const mint = await page.request.post(`${demo.url}/form-sessions/forms/form_open/session`, {
    data: {},
  });
  expect(mint.status()).toBe(404);
  await expect(armed).toHaveText('Armed failures: none.');

  await remint.click();
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(armed).toHaveText('Armed failures: none.');
});

test('the armed count, looked up each second, is written only when it changes', async ({
  page,
  demo,
}) => {
  await page.clock.install();
  let looks = 0;
  page.on('requestfinished', (request) => {
    if (request.url().endsWith('/demo/control/stats')) looks += 1;
  });
  await page.goto(demo.url);
  const armed = page.getByRole('status').filter({ hasText: 'Armed failures' });
  await expect(armed).toHaveText('Armed failures: none.');
  await page.selectOption('#fail-code', 'user_not_found');
  await page.getByRole('button', { name: 'Arm', exact: true }).click();
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');
  // A live region rewritten with the same words may be read out again, each second.
  await armed.evaluate((region) => {
    (window as { rewrites?: number }).rewrites = 0;
    new MutationObserver((records) => {
      (window as { rewrites?: number }).rewrites =
        ((window as { rewrites?: number }).rewrites ?? 0) + records.length;
    }).observe(region, { childList: true, characterData: true, subtree: true });
  });
  for (let second = 1; second <= 3; second++) {
    const before = looks;
    await page.clock.runFor(1_000);
    await expect.poll(() => looks).toBeGreaterThan(before);
  }
  expect(await page.evaluate(() => (window as { rewrites?: number }).rewrites)).toBe(0);
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');
});

test('the Embed box says beside itself, not in the sandbox controls, that it needs a form id', async ({
  page,
  demo,
}) => {
  // The console's config is held: its controls are not ready, and a click must wait for them
  // (a submit before the box's handler reloaded the page, and said nothing).
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/demo/config', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(demo.url);
  const box = page.getByLabel('Or any form id or Core slug');
  const clicked = page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.locator('.panel')).toHaveAttribute('inert');
  release();
  await clicked;
  const problem = page.locator('#form-other-error');
  await expect(problem).toHaveText('Type a form id, or core: and a Core slug.');
  // The sandbox controls are hidden on a real service: the message must not live there.
  await expect(problem.locator('xpath=ancestor::section[@id="controls"]')).toHaveCount(0);
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(box).toHaveAccessibleDescription('Type a form id, or core: and a Core slug.');
  await expect(box).toBeFocused();
  await box.fill('form_open');
  await expect(problem).toBeHidden();
  await expect(box).not.toHaveAttribute('aria-invalid');
});

test('another portal user keeps the form the tester chose, picked or typed, not the list’s first', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const form = page.getByLabel('From the catalogue');
  await form.selectOption('form:form_google');
  await page.getByLabel('Portal user').selectOption('alex');
  // Alex signs in on Google forms: the list's first, a Microsoft form, would fail for him.
  await expect(form).toHaveValue('form:form_google');
  await expect(element).toHaveAttribute('form-id', 'form_google');
  await expect(element).toHaveAttribute('state', 'framed');

  await page.getByLabel('Or any form id or Core slug').fill('core:new-starter');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(element).toHaveAttribute('core-slug', 'new-starter');
  await page.getByLabel('Portal user').selectOption('adele');
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(element).toHaveAttribute('core-slug', 'new-starter');
});

test('a console that cannot read its config says so where it says what it runs on, its controls left inert', async ({
  page,
  demo,
}) => {
  await page.route('**/demo/config', (route) => route.abort());
  await page.goto(demo.url);
  await expect(page.locator('#mode')).toContainText(
    'The console could not read /demo/config (TypeError: Failed to fetch): reload the page',
  );
  await expect(page.locator('.panel')).toHaveAttribute('inert');
});

test('picking from the catalogue clears the Embed box’s complaint about an empty id', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  const box = page.getByLabel('Or any form id or Core slug');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.locator('#form-other-error')).toBeVisible();
  await page.getByLabel('From the catalogue').selectOption('form:form_open');
  await expect(page.locator('#form-other-error')).toBeHidden();
  await expect(box).not.toHaveAttribute('aria-invalid');
});

test('the state line does not call a mint the element refused to send “no answer”', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  await page.getByLabel('Or any form id or Core slug').fill('..');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'failed');
  await expect(page.locator('#session-info')).toHaveText(
    'invalid_request (no answer, or refused by the element)',
  );
});

test('the form the tester picked is kept through a portal user whose list lacks it, for the next user whose list has it', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const form = page.getByLabel('From the catalogue');
  const user = page.getByLabel('Portal user');
  await form.selectOption('form:form_google');
  // Nobody signed in sees only the open form: it is framed meanwhile.
  await user.selectOption('anonymous');
  await expect(form).toHaveValue('form:form_open');
  await expect(element).toHaveAttribute('form-id', 'form_open');
  await user.selectOption('alex');
  await expect(form).toHaveValue('form:form_google');
  await expect(element).toHaveAttribute('form-id', 'form_google');
  await expect(element).toHaveAttribute('state', 'framed');
});

test('the latency box takes its bound, 60000; checks nothing before Set; and a refused value clears the last result and puts focus back in the box', async ({
  page,
  demo,
}) => {
  await openFramedConsole(page, demo);
  const { sent, box, set } = latencyControls(page);
  const result = page.locator('#control-result');
  await box.fill('1e3');
  await expect(box, 'nothing is marked while typing, before Set').not.toHaveAttribute(
    'aria-invalid',
  );
  await box.fill('60000');
  await set.click();
  await expect(result).toHaveText('Done: upstream latency 60000 ms.');
  await expect(box).not.toHaveAttribute('aria-invalid');
  await box.fill('60001');
  await set.click();
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await expect(result, 'the last result is not left as if of this Set').toHaveText('');
  await expect(box).toBeFocused();
  expect(sent).toEqual([{ ms: 60000 }]);
});

test('Arm shows the count the sandbox armed, says Done: armed and the code (not “Done: fail”), and sends a retryable code its Retry-After', async ({
  page,
  demo,
}) => {
  await page.goto(demo.url);
  const armed = page.getByRole('status').filter({ hasText: 'Armed failures' });
  await expect(armed).toHaveText('Armed failures: none.');
  const bodies: unknown[] = [];
  await page.route('**/demo/control/fail', async (route) => {
    bodies.push(route.request().postDataJSON());
    await route.continue();
  });
  await page.selectOption('#fail-code', 'unavailable');
  await page.getByRole('button', { name: 'Arm', exact: true }).click();
  await expect(armed).toHaveText('Armed failures: 1 (the next mint fails).');
  // The control's path, fail, read as if arming had failed.
  await expect(page.locator('#control-result')).toHaveText('Done: armed unavailable');
  expect(bodies).toEqual([{ kind: 'error', scope: 'session', code: 'unavailable', retryAfter: 3 }]);
});

test('after a reload the latency box shows the latency the sandbox holds, not its HTML’s 0', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const { box, set } = latencyControls(page);
  await box.fill('250');
  await set.click();
  await expect(page.locator('#control-result')).toHaveText('Done: upstream latency 250 ms.');
  await page.reload();
  await expect(box).toHaveValue('250');
  // Each page's mint, held up by the latency, is answered before the page goes.
  await expect(element).toHaveAttribute('state', 'framed');
  // Set elsewhere (another tab, a script): the page shows it once loaded too.
  demo.sandbox?.control.setLatency(120);
  await page.reload();
  await expect(box).toHaveValue('120');
  await expect(box).not.toHaveAttribute('aria-invalid');
  await expect(element).toHaveAttribute('state', 'framed');
});

test('the second Arm makes the framed page fail to redeem its handle: the count says so, and the element remints with reason error', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  const element = await openFramedConsole(page, demo);
  const armed = page.getByRole('status').filter({ hasText: 'Armed failures' });
  await expect(armed).toHaveText('Armed failures: none.');
  const redeem = page.getByRole('button', {
    name: 'Arm: the framed page fails to open its handle',
  });
  await redeem.click();
  await expect(armed).toHaveText('Armed failures: 1 (the next framed page fails to open).');
  await expect(page.locator('#control-result')).toHaveText('Done: armed a failed handle');
  await page.getByRole('button', { name: 'Arm', exact: true }).click();
  await expect(armed).toHaveText(
    'Armed failures: 2 (the next mint fails; the next framed page fails to open).',
  );
  expect(demo.sandbox?.control.pendingFaults()).toEqual({ api: 0, session: 1, redeem: 1 });
  demo.sandbox?.control.reset();
  await redeem.click();
  // Armed before the remint: the framed page it brings must find the fault there.
  await expect(armed).toHaveText('Armed failures: 1 (the next framed page fails to open).');
  await page.getByRole('button', { name: 'Remint now' }).click();
  await expect(armed).toHaveText('Armed failures: none.');
  await expectReframedAfterOneRemint(page, element, 'error');
});

test('the result line is cleared by the next action in the panel: another form, portal user, sign-out or language', async ({
  page,
  demo,
}) => {
  await openFramedConsole(page, demo);
  const result = page.locator('#control-result');
  const remint = page.getByRole('button', { name: 'Remint now' });
  const actions = {
    'a form picked': () => page.getByLabel('From the catalogue').selectOption('form:form_open'),
    'a form typed': async () => {
      await page.getByLabel('Or any form id or Core slug').fill('core:new-starter');
      await page.getByLabel('Or any form id or Core slug').press('Enter');
    },
    // Alex signed in before Sign out: a sign-in answered after it would sign him back in.
    'a portal user': () => pickPortalUser(page, 'alex'),
    'Sign out': () => page.getByRole('button', { name: 'Sign out' }).click(),
    'Sign in again': () => page.getByRole('button', { name: 'Sign in again' }).click(),
    'a language': () => page.getByLabel('Messages of the element').selectOption('de'),
  };
  for (const [action, act] of Object.entries(actions)) {
    await remint.click();
    await expect(result).toHaveText('Done: remint');
    await act();
    await expect(result, `after ${action}`).toHaveText('');
  }
  // Another control replaces it.
  await remint.click();
  await page.getByRole('button', { name: 'Expire the session now' }).click();
  await expect(result).toHaveText('Done: expire-sessions');
});

test('each logged event names the form it came from, after several forms were embedded in turn', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const first = await element.getAttribute('form-id');
  const box = page.getByLabel('Or any form id or Core slug');
  for (const typed of ['form_open', 'core:new-starter']) {
    await box.fill(typed);
    await box.press('Enter');
    await expect(element).toHaveAttribute('state', 'framed');
  }
  // Newest first.
  await expect(page.locator('#log li[data-kind=form-embed-session] .form')).toHaveText([
    'core:new-starter',
    'form_open',
    `${first}`,
  ]);
});

test('the console uses up the organisation’s mints and moves the sandbox clock on, each saying what it did', async ({
  page,
  demo,
}) => {
  await openFramedConsole(page, demo);
  const result = page.locator('#control-result');
  await page.getByRole('button', { name: 'Use up the organisation’s mints' }).click();
  await expect(result).toHaveText(
    'Done: mints used up. For a minute of the sandbox clock each mint answers rate_limited (429).',
  );
  await page.getByRole('button', { name: 'Remint now' }).click();
  await expect(page.locator('#session-info')).toHaveText('rate_limited (429) · retrying');
  const mint = () =>
    page.request.post(`${demo.url}/form-sessions/forms/form_open/session`, { data: {} });
  expect((await mint()).status()).toBe(429);

  await page.getByLabel('Move the sandbox clock forward').fill('60');
  await page.getByRole('button', { name: 'Advance', exact: true }).click();
  await expect(result).toHaveText('Done: the sandbox clock moved 60 s forward.');
  // A minute on, the limit has its mints back.
  expect((await mint()).status()).toBe(200);
});

test('the clock box moves the sandbox clock by the seconds typed: to just before a session’s lapse (30 minutes from its mint), then just past it', async ({
  page,
  demo,
}) => {
  await recordEvents(page);
  const element = await openFramedConsole(page, demo);
  const box = page.getByLabel('Move the sandbox clock forward');
  const result = page.locator('#control-result');
  // 20 s short of the lapse, less the wall time since the mint (a second or two here).
  await box.fill('1780');
  await page.getByRole('button', { name: 'Advance', exact: true }).click();
  await expect(result).toHaveText('Done: the sandbox clock moved 1780 s forward.');
  // A reload of the framed page notices a lapse: there is none yet, so the same frame shows its
  // form again (a lapse would replace the frame, which reloadFrame never takes for the reload).
  await reloadFrame(element, (frame) => frame.evaluate(() => location.reload()));
  await expect(submitOf(page)).toBeVisible();

  await box.fill('30');
  await box.press('Enter');
  await expect(result).toHaveText('Done: the sandbox clock moved 30 s forward.');
  await submitOf(page).click();
  await expectReframedAfterOneRemint(page, element, 'expired');
});

test('a reload keeps the language the tester picked, as the address the console opened with ?lang= does', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const language = page.getByLabel('Messages of the element');
  await language.selectOption('de');
  await page.reload();
  await expect(language).toHaveValue('de');
  await expect(page.locator('#embed-slot')).toHaveAttribute('lang', 'de');
  await expect(element).toHaveAttribute('state', 'framed');
});

test('the other demo pages take the language picked on the console, in Arabic right to left, and their links bring it and the form back', async ({
  page,
  demo,
}) => {
  await openFramedConsole(page, demo);
  await page.getByLabel('Messages of the element').selectOption('ar');
  await page.getByLabel('From the catalogue').selectOption('form:form_open');
  const nav = page.getByRole('navigation', { name: 'Demo pages' });
  for (const [link, path] of [
    ['Several embeds', '/several.html'],
    ['Lazy embed', '/lazy.html'],
    ['Hostile frame', '/hostile.html'],
  ] as const) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(new RegExp(`${path}\\?lang=ar&form=form_open$`));
    const elements = page.locator('form-embed');
    await expect(elements.first()).toBeAttached();
    for (const element of await elements.all()) {
      await expect(element).toHaveAttribute('lang', 'ar');
      await expect(element).toHaveAttribute('dir', 'rtl');
    }
    const inUse = await elements
      .first()
      .evaluate((embed) => (embed.constructor as unknown as { messages: Messages }).messages);
    expect(inUse).toEqual(ar);
    await nav.getByRole('link', { name: 'Console' }).click();
    await expect(page.getByLabel('Messages of the element')).toHaveValue('ar');
    await expect(page.getByLabel('From the catalogue')).toHaveValue('form:form_open');
  }
});

test('the Language list offers every shipped pack, and each one picked is every element’s messages, on a slot marked with its language', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const language = page.getByLabel('Messages of the element');
  const offered = await language
    .locator('option')
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  const shipped = readdirSync(new URL('../packages/element/src/locales/', import.meta.url)).map(
    (file) => file.replace(/\.ts$/, ''),
  );
  expect(offered.sort()).toEqual(['en', ...shipped].sort());
  const slot = page.locator('#embed-slot');
  for (const lang of shipped) {
    const pack: Messages = (await import(`../packages/element/src/locales/${lang}.ts`)).default;
    await language.selectOption(lang);
    await expect(slot).toHaveAttribute('lang', lang);
    await expect(slot).toHaveAttribute('dir', lang === 'ar' ? 'rtl' : 'ltr');
    const inUse = () =>
      element.evaluate(
        (embed) => (embed.constructor as unknown as { messages: Messages }).messages,
      );
    expect(await inUse()).toEqual(pack);
  }
});

test('a reload keeps the form the tester chose, picked or typed, whichever came last, as the address the console opened with ?form= or ?embed= does; no choice adds a history entry', async ({
  page,
  demo,
}) => {
  const element = await openFramedConsole(page, demo);
  const entries = await page.evaluate(() => history.length);
  const form = page.getByLabel('From the catalogue');
  const box = page.getByLabel('Or any form id or Core slug');
  // Alex signs in on Google forms: the list's first, a Microsoft form, fails for him.
  await page.getByLabel('Portal user').selectOption('alex');
  await form.selectOption('form:form_google');
  await expect(element).toHaveAttribute('state', 'framed');
  await page.reload();
  await expect(form).toHaveValue('form:form_google');
  await expect(element).toHaveAttribute('form-id', 'form_google');
  await expect(element).toHaveAttribute('state', 'framed');

  // Adele is signed in (the portal's answer set its cookie) before the reload below: a reload
  // sooner would cancel her sign-in and reload as Alex, who cannot open a Core form.
  await pickPortalUser(page, 'adele');
  await box.fill('core:new-starter');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(element).toHaveAttribute('core-slug', 'new-starter');
  await page.reload();
  await expect(element).toHaveAttribute('core-slug', 'new-starter');
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(box, 'the box says what is embedded').toHaveValue('core:new-starter');
  await expect(form, 'the list shows no entry, as after Embed').toHaveValue('');

  // Picked after one typed: the list's form is the one kept, not the typed one before it.
  await form.selectOption('form:form_open');
  await expect(element).toHaveAttribute('form-id', 'form_open');
  await page.reload();
  await expect(element).toHaveAttribute('form-id', 'form_open');
  await expect(form).toHaveValue('form:form_open');
  expect(await page.evaluate(() => history.length), 'Back still leaves the console').toBe(entries);
});
