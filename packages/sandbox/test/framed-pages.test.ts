import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { PlainErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, startSandbox } from '../src/index.js';
import { mintSession, postedState, redeem, sandboxFor } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const coreForm = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;

const submit = (sessionUrl: string) =>
  fetch(`${sessionUrl}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'fullName=Adele&details=x',
  });
const lookup = (sessionUrl: string, body = '{"query":""}') =>
  fetch(`${sessionUrl}/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });

/** What the sandbox writes to stderr from now until the test ends. */
function watchStderr(t: TestContext): () => string {
  const write = t.mock.method(process.stderr, 'write');
  return () => write.mock.calls.map((call) => String(call.arguments[0])).join('');
}

/** Bad client input must not show Express's stack trace (paths into node_modules). */
function assertNoStack(text: string) {
  assert.doesNotMatch(text, /URIError|SyntaxError|node_modules|\n\s+at /);
}

describe('framed pages: handles, sessions and lapses', () => {
  test('a GET of the embedUrl redeems the handle and 303-redirects to a session URL without the handle', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, microsoftForm, adele);
    const sessionUrl = await redeem(session.embedUrl);
    assert.ok(sessionUrl.startsWith(`${sandbox.formsOrigin}/f/${fixtureIds.forms.microsoft}/s/`));
    assert.ok(!sessionUrl.includes(session.formSessionHandle ?? '-'));
    const page = await fetch(sessionUrl);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('set-cookie'), null, 'no cookies');
    assert.equal(page.headers.get('cache-control'), 'no-store');
    assert.equal(page.headers.get('referrer-policy'), 'no-referrer', 'the session id stays put');
    assert.equal(page.headers.get('x-frame-options'), null, 'the page may be framed');
    const html = await page.text();
    assert.match(html, /<h1>IT support request<\/h1>/);
    assert.match(html, /Signed in as adele@contoso\.example/);
    assert.match(html, /<button type="submit">Submit<\/button>/);
    assert.equal(postedState(html), undefined, 'a live session posts nothing');
    const reload = await fetch(sessionUrl);
    assert.equal(reload.status, 200, 'a reload of the session URL does not redeem again');
  });

  test('a HEAD of the embedUrl or of a lapsed session URL spends nothing: 405, GET only', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, microsoftForm, adele);
    const head = await fetch(session.embedUrl, { method: 'HEAD', redirect: 'manual' });
    assert.equal(head.status, 405);
    assert.equal(head.headers.get('allow'), 'GET');
    const sessionUrl = await redeem(session.embedUrl);
    sandbox.control.expireSessions();
    assert.equal((await fetch(sessionUrl, { method: 'HEAD' })).status, 405);
    assert.equal(postedState(await (await fetch(sessionUrl)).text()), 'expired');
  });

  test('a handle is single use: the second GET renders "could not sign you in" and posts error', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, microsoftForm, adele);
    await redeem(session.embedUrl);
    const again = await fetch(session.embedUrl, { redirect: 'manual' });
    assert.equal(again.status, 401);
    const html = await again.text();
    assert.match(html, /could not sign you in/);
    assert.equal(postedState(html), 'error');
  });

  test('a handle older than its window (expiresIn, 120 s) cannot be redeemed and posts error', async (t) => {
    const sandbox = await sandboxFor(t);
    const inTime = await mintSession(sandbox, microsoftForm, adele);
    const late = await mintSession(sandbox, microsoftForm, adele);
    sandbox.control.advanceClock(119);
    assert.equal((await fetch(inTime.embedUrl, { redirect: 'manual' })).status, 303, 'at 119 s');
    sandbox.control.advanceClock(2);
    const answer = await fetch(late.embedUrl, { redirect: 'manual' });
    assert.equal(answer.status, 401);
    assert.equal(postedState(await answer.text()), 'error');
  });

  test('handleTtlSeconds shortens the window', async (t) => {
    const sandbox = await sandboxFor(t, { handleTtlSeconds: 10 });
    const session = await mintSession(sandbox, microsoftForm, adele);
    assert.equal(session.expiresIn, 10);
    sandbox.control.advanceClock(11);
    const late = await fetch(session.embedUrl, { redirect: 'manual' });
    assert.equal(postedState(await late.text()), 'error');
  });

  test('handleTtlSeconds is whole seconds, at least 1: expiresIn is an integer, and 0 only when no handle is issued', async () => {
    // 0 answered expiresIn 0 with a handle, which the contract keeps for a none form with no
    // user; 0.5 answered expiresIn 1 for a handle too old after half a second.
    for (const handleTtlSeconds of [0, 0.5, 90.5]) {
      await assert.rejects(
        // One that starts is closed again, so that the failed test does not hold the process open.
        startSandbox({ handleTtlSeconds }).then(async (started) => {
          await started.close();
          return started;
        }),
        /^TypeError: startSandbox: option handleTtlSeconds must be a whole number of seconds >= 1/,
        String(handleTtlSeconds),
      );
    }
  });

  test('two listeners cannot be given one port: a TypeError naming both options, not EADDRINUSE', async () => {
    await assert.rejects(
      startSandbox({ formsPort: 4011, coreFormsPort: 4011 }).then(async (started) => {
        await started.close();
        return started;
      }),
      /^TypeError: startSandbox: options formsPort and coreFormsPort both name port 4011: each listener needs a port of its own$/,
    );
  });

  test('a made-up handle, or a handle for another form, posts error', async (t) => {
    const sandbox = await sandboxFor(t);
    const forged = await fetch(
      `${sandbox.formsOrigin}/f/${fixtureIds.forms.microsoft}?handle=fsh_forged`,
    );
    assert.equal(postedState(await forged.text()), 'error');
    const session = await mintSession(sandbox, microsoftForm, adele);
    const handle = new URL(session.embedUrl).searchParams.get('handle') ?? '';
    const other = await fetch(
      `${sandbox.formsOrigin}/f/${fixtureIds.forms.google}?handle=${handle}`,
      { redirect: 'manual' },
    );
    assert.equal(other.status, 401, 'refused at once, not redirected to a session URL');
    assert.equal(postedState(await other.text()), 'error');
  });

  test('an embed page without a handle is the anonymous page of a none form only: any other form renders the sign-in error, and takes no anonymous submit', async (t) => {
    const sandbox = await sandboxFor(t);
    const { forms, coreForms } = fixtureIds;
    const pages = [
      ...[forms.microsoft, forms.google, forms.password, forms.internal].map(
        (id) => `${sandbox.formsOrigin}/f/${id}`,
      ),
      `${sandbox.coreFormsOrigin}/c/${coreForms.newStarter}`,
    ];
    for (const page of pages) {
      const answer = await fetch(page, { redirect: 'manual' });
      assert.equal(answer.status, 401, page);
      const html = await answer.text();
      assert.match(html, /could not sign you in/, page);
      assert.equal(postedState(html), 'error', page);
      const submitted = await fetch(`${page}/submit`, { method: 'POST', redirect: 'manual' });
      assert.equal(submitted.status, 404, `${page}/submit`);
      assert.doesNotMatch(await submitted.text(), /Submitted/, `${page}/submit`);
    }
  });

  test("a session URL belongs to its form: an unknown session, or another form's, renders the sign-in error; an unknown form is not found", async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, microsoftForm, adele);
    const sessionUrl = await redeem(session.embedUrl);
    const sessionId = sessionUrl.slice(sessionUrl.lastIndexOf('/') + 1);
    const elsewhere = [
      `${sandbox.formsOrigin}/f/${fixtureIds.forms.google}/s/${sessionId}`,
      `${sandbox.formsOrigin}/f/${fixtureIds.forms.microsoft}/s/fss_unknown`,
    ];
    for (const url of elsewhere) {
      const page = await fetch(url);
      assert.equal(page.status, 401, url);
      const html = await page.text();
      assert.doesNotMatch(html, /Signed in as/, url);
      assert.equal(postedState(html), 'error', url);
      const submitted = await submit(url);
      assert.equal(submitted.status, 401, `${url}/submit`);
      assert.equal(postedState(await submitted.text()), 'error', `${url}/submit`);
    }
    const missing = await fetch(`${sandbox.formsOrigin}/f/${fixtureIds.forms.missing}?handle=x`);
    assert.equal(missing.status, 404);
    assert.equal(postedState(await missing.text()), undefined, 'nothing to sign in to');
  });

  test('a redeem fault (e.g. rate-limited past retry) renders the error page', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'error', code: 'rate_limited', scope: 'redeem' });
    const session = await mintSession(sandbox, microsoftForm, adele);
    const failed = await fetch(session.embedUrl, { redirect: 'manual' });
    assert.equal(failed.status, 429);
    assert.equal(postedState(await failed.text()), 'error');
    sandbox.control.fail({ kind: 'reset', scope: 'redeem' });
    const reset = await mintSession(sandbox, microsoftForm, adele);
    await assert.rejects(fetch(reset.embedUrl, { redirect: 'manual' }), /fetch failed/);
  });

  test('a redeem fault waits for an address with a handle: the form without one (its shareUrl) does not spend it', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'error', code: 'internal_error', scope: 'redeem' });
    const shared = await fetch(`${sandbox.formsOrigin}/f/${fixtureIds.forms.microsoft}`);
    assert.equal(shared.status, 401, 'a form that needs sign-in, opened with no handle');
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 0, redeem: 1 });
    const session = await mintSession(sandbox, microsoftForm, adele);
    assert.equal((await fetch(session.embedUrl, { redirect: 'manual' })).status, 500);
  });

  test('submitting a live session renders a Submitted confirmation with a reference', async (t) => {
    const sandbox = await sandboxFor(t);
    const sessionUrl = await redeem((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
    const answer = await submit(sessionUrl);
    assert.equal(answer.status, 200);
    assert.match(await answer.text(), /<h1>Submitted<\/h1>[\s\S]*REF-[0-9A-F]{6}/);
  });

  test('a session lapsed 30 minutes after mint is noticed on reload and posts expired once per lapse', async (t) => {
    const sandbox = await sandboxFor(t);
    const sessionUrl = await redeem((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
    sandbox.control.advanceClock(30 * 60);
    const first = await fetch(sessionUrl);
    assert.equal(first.status, 401);
    const html = await first.text();
    assert.match(html, /Your session has ended/);
    assert.equal(postedState(html), 'expired');
    const second = await fetch(sessionUrl);
    assert.match(
      await second.text(),
      /<body>/,
      'the second notice of the same lapse posts nothing',
    );
  });

  test('the session lasts sessionTtlSeconds from mint, not from redemption', async (t) => {
    const sandbox = await sandboxFor(t, { sessionTtlSeconds: 100 });
    const session = await mintSession(sandbox, microsoftForm, adele);
    sandbox.control.advanceClock(60);
    const sessionUrl = await redeem(session.embedUrl);
    sandbox.control.advanceClock(39);
    assert.equal(postedState(await (await fetch(sessionUrl)).text()), undefined, 'at 99 s');
    sandbox.control.advanceClock(1);
    assert.equal(postedState(await (await fetch(sessionUrl)).text()), 'expired', 'at 100 s');
  });

  test('a lapse is noticed on submit and posts expired once per lapse', async (t) => {
    const sandbox = await sandboxFor(t);
    const sessionUrl = await redeem((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
    sandbox.control.expireSessions();
    const first = await submit(sessionUrl);
    assert.equal(first.status, 401);
    assert.equal(postedState(await first.text()), 'expired');
    const second = await submit(sessionUrl);
    assert.equal(second.status, 401);
    assert.equal(postedState(await second.text()), undefined);
  });

  test('the Core form page offers a lookup; a lapse is noticed on lookup and posts once', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, coreForm, adele);
    const sessionUrl = await redeem(session.embedUrl);
    assert.ok(
      sessionUrl.startsWith(`${sandbox.coreFormsOrigin}/c/${fixtureIds.coreForms.newStarter}/s/`),
    );
    assert.match(await (await fetch(sessionUrl)).text(), />Look up<\/button>/);
    const live = await lookup(sessionUrl);
    assert.equal(live.status, 200);
    assert.match(((await live.json()) as { result: string }).result, /Lookup complete/);
    sandbox.control.expireSessions();
    const first = await lookup(sessionUrl);
    assert.equal(first.status, 401);
    assert.deepEqual(await first.json(), { state: 'expired', post: true });
    assert.deepEqual(await (await lookup(sessionUrl)).json(), { state: 'expired', post: false });
    assert.equal(postedState(await (await fetch(sessionUrl)).text()), undefined, 'same lapse');
  });

  test('an address that is not valid percent-encoding answers the not-found page with 400, and logs nothing', async (t) => {
    const sandbox = await sandboxFor(t);
    const stderr = watchStderr(t);
    for (const url of [
      `${sandbox.formsOrigin}/f/%E0%A4%A`,
      `${sandbox.formsOrigin}/f/${fixtureIds.forms.microsoft}/s/%E0%A4%A`,
      `${sandbox.coreFormsOrigin}/c/%E0%A4%A`,
      `${sandbox.coreFormsOrigin}/c/${fixtureIds.coreForms.newStarter}/s/%E0%A4%A`,
    ]) {
      const answer = await fetch(url);
      assert.equal(answer.status, 400, url);
      assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
      const html = await answer.text();
      assert.match(html, /<h1>Not found<\/h1>/, url);
      assertNoStack(html);
    }
    assert.equal(stderr(), '');
  });

  test('a lookup whose body is not JSON, or whose address is not valid, answers JSON 400 {error}', async (t) => {
    const sandbox = await sandboxFor(t);
    const stderr = watchStderr(t);
    const sessionUrl = await redeem((await mintSession(sandbox, coreForm, adele)).embedUrl);
    const badBody = await lookup(sessionUrl, '{bad');
    assert.equal(badBody.status, 400);
    const text = await badBody.text();
    assertNoStack(text);
    assert.deepEqual(PlainErrorBodySchema.parse(JSON.parse(text)), {
      error: 'The body is not valid JSON.',
    });
    const badPath = await lookup(`${sandbox.coreFormsOrigin}/c/new-starter/s/%E0%A4%A`);
    assert.equal(badPath.status, 400);
    PlainErrorBodySchema.parse(await badPath.json());
    // 64kb, as the README and the answer say: one byte more is refused.
    const query = (bytes: number) => JSON.stringify({ query: 'x'.repeat(bytes - 12) });
    assert.equal(query(64 * 1024).length, 64 * 1024);
    assert.equal((await lookup(sessionUrl, query(64 * 1024))).status, 200);
    const tooLarge = await lookup(sessionUrl, query(64 * 1024 + 1));
    assert.equal(tooLarge.status, 413);
    assert.deepEqual(await tooLarge.json(), { error: 'The body is too large: at most 64kb.' });
    assert.equal(stderr(), '');
  });

  test('a none form with no user renders an anonymous page that submits without a session', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(sandbox, { kind: 'form', formId: fixtureIds.forms.open });
    const page = await fetch(session.embedUrl, { redirect: 'manual' });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /not signed in: this form is anonymous/);
    const done = await fetch(`${session.embedUrl}/submit`, { method: 'POST' });
    assert.match(await done.text(), /<h1>Submitted<\/h1>/);
  });

  test('a portal session shows the portal identifier', async (t) => {
    const sandbox = await sandboxFor(t);
    const session = await mintSession(
      sandbox,
      { kind: 'form', formId: fixtureIds.forms.open },
      { userIdentifier: 'portal-user-42' },
    );
    assert.equal(session.provider, 'portal');
    assert.match(
      await (await fetch(await redeem(session.embedUrl))).text(),
      /Signed in as portal-user-42/,
    );
  });
});
