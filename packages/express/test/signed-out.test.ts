import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Catalogue, MintResponseSchema, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { installCacheClock } from './helpers/cache-clock.js';
import {
  type Answer,
  editingFormsList,
  type MountedMiddleware,
  mountMiddleware,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const { forms, coreForms } = fixtureIds;
const mintCount = () =>
  Object.entries(sandbox.control.stats())
    .filter(([route]) => route.startsWith('POST '))
    .reduce((sum, [, count]) => sum + count, 0);

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    // One router for the whole file: its tests' mints share one client address's count and one minute,
    // which the default of 10 would reach as tests are added. The limits have tests of their own.
    limit: { mints: 1000 },
  });
});

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

function assertSignInRequired(answer: Answer) {
  assert.equal(answer.status, 401, answer.text);
  const { error } = SessionErrorBodySchema.parse(answer.body);
  assert.equal(error.code, 'sign_in_required');
  assert.equal(error.retryable, false);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

describe('a mint with nobody signed in (docs/contract.md#portal-codes)', () => {
  test('a designer form that needs a user (microsoft, google) is sign_in_required, without a mint', async () => {
    for (const formId of [forms.microsoft, forms.google]) {
      const mintsBefore = mintCount();
      assertSignInRequired(await portal.mint({ kind: 'form', formId }));
      assert.equal(mintCount(), mintsBefore, `no mint was spent on ${formId}`);
    }
  });

  test('a Core form is sign_in_required, without any upstream request', async () => {
    const before = portal.upstream.length;
    assertSignInRequired(await portal.mint({ kind: 'coreForm', slug: coreForms.newStarter }));
    assert.deepEqual(portal.upstream.slice(before), []);
  });

  test('a form with authType none keeps working: a session with no user, provider none, no handle', async () => {
    const answer = await portal.mint({ kind: 'form', formId: forms.open });
    assert.equal(answer.status, 200, answer.text);
    const session = MintResponseSchema.parse(answer.body);
    assert.equal(session.provider, 'none');
    assert.equal(session.expiresIn, 0);
  });

  test('a form no session can open (authType password, internal) is not a call to sign in: the service says form_session_unsupported', async () => {
    // Signing in would not help: only a form the list says needs a user (microsoft, google) is
    // sign_in_required; this mint goes up, and the service says why it cannot open.
    for (const formId of [forms.password, forms.internal]) {
      const answer = await portal.mint({ kind: 'form', formId });
      assert.equal(answer.status, 400, answer.text);
      const { error } = SessionErrorBodySchema.parse(answer.body);
      assert.equal(error.code, 'form_session_unsupported', formId);
    }
  });

  test("a form the cached list does not know yet is minted, and the service's refusal of a user-less request becomes sign_in_required", async () => {
    // The forms list the middleware reads leaves the microsoft form out, as if it were newer.
    await using stale = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: editingFormsList((listed) => listed.filter((form) => form.id !== forms.microsoft)),
    });
    const mintsBefore = mintCount();
    assertSignInRequired(await stale.mint({ kind: 'form', formId: forms.microsoft }));
    assert.equal(mintCount() - mintsBefore, 1, 'the service was asked');
  });

  test('signed-out refusals count against the per-address limit: past it, they cost the service no read', async () => {
    // With no cache, telling whether a form needs a user reads the forms list every time.
    await using uncached = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 2 },
      catalogue: { cacheTtlMs: 0 },
    });
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await uncached.mint({ kind: 'form', formId: forms.microsoft })).status);
    }
    assert.deepEqual(statuses, [401, 401, 429, 429, 429, 429]);
    const reads = uncached.upstream.filter((call) => call.url.endsWith('/api/v1/forms'));
    assert.equal(reads.length, 2, 'one forms-list read per counted attempt, none past the limit');
  });

  test("signed-out mints from many addresses share one count, so signed-in users keep the rest of the organisation's mints", async () => {
    await using shared = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, limit: { signedOutMints: 3 } },
      (app) => app.set('trust proxy', 'loopback'),
    );
    const mintsBefore = mintCount();
    const statuses = [];
    for (let i = 1; i <= 5; i++) {
      const from = { headers: { 'x-forwarded-for': `203.0.113.${i}` } };
      statuses.push((await shared.mint({ kind: 'form', formId: forms.open }, from)).status);
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.equal(mintCount() - mintsBefore, 3, 'past the shared count, no mint goes upstream');
    const refused = await shared.mint(
      { kind: 'form', formId: forms.open },
      { headers: { 'x-forwarded-for': '203.0.113.9' } },
    );
    assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'rate_limited');
    assert.match(refused.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    // A form that needs a user is still told so: only a mint that goes upstream asks the count.
    const signIn = await shared.mint(
      { kind: 'form', formId: forms.microsoft },
      { headers: { 'x-forwarded-for': '203.0.113.10' } },
    );
    assertSignInRequired(signIn);
    const signedIn = await shared.mint({ kind: 'form', formId: forms.open }, { session: 'adele' });
    assert.equal(signedIn.status, 200, signedIn.text);
  });

  test('a plain 404 from a path the service does not have is invalid_request for a signed-out visitor too, not a call to sign in', async () => {
    await using wrongPath = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      paths: { formSession: '/api/v1/designer-forms/{formId}/sessions' },
    });
    const answer = await wrongPath.mint({ kind: 'form', formId: forms.open });
    assert.equal(answer.status, 400, answer.text);
    assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'invalid_request');
  });

  test('a sign_in_required refusal does not spend the count signed-out mints share', async () => {
    await using shared = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { signedOutMints: 1, mints: 100 },
    });
    for (let i = 0; i < 3; i++) {
      assertSignInRequired(await shared.mint({ kind: 'form', formId: forms.microsoft }));
    }
    const open = await shared.mint({ kind: 'form', formId: forms.open });
    assert.equal(open.status, 200, open.text);
  });

  test('while the forms list cannot be read, a signed-out mint costs the service one request, not two', async () => {
    await using fresh = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const before = fresh.upstream.length;
    // The next API request fails: the forms list read by the first signed-out mint.
    sandbox.control.fail({ kind: 'error', code: 'internal_error', scope: 'api', count: 1 });
    for (let i = 0; i < 3; i++) {
      const answer = await fresh.mint({ kind: 'form', formId: forms.open });
      assert.equal(answer.status, 200, answer.text);
    }
    const calls = fresh.upstream
      .slice(before)
      .map((call) => `${call.method} ${new URL(call.url).pathname}`);
    assert.deepEqual(calls, [
      'GET /api/v1/forms',
      ...Array.from({ length: 3 }, () => `POST /api/v1/forms/${forms.open}/session`),
    ]);
  });

  test('after a failed forms-list read, the list is asked for again once 10 s have passed, not before', async (t) => {
    await using fresh = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    // Only Date: sockets and the sandbox keep real timers.
    const clock = FakeTimers.install({ toFake: ['Date'], now: Date.now() });
    t.after(() => clock.uninstall());
    const listReads = () =>
      fresh.upstream.filter((call) => new URL(call.url).pathname === '/api/v1/forms').length;
    sandbox.control.fail({ kind: 'error', code: 'internal_error', scope: 'api', count: 1 });
    const mint = async () => {
      const answer = await fresh.mint({ kind: 'form', formId: forms.open });
      assert.equal(answer.status, 200, answer.text);
    };
    await mint();
    assert.equal(listReads(), 1);
    clock.tick(9_999);
    await mint();
    assert.equal(listReads(), 1, 'not within 10 s');
    clock.tick(1);
    await mint();
    assert.equal(listReads(), 2, 'again at 10 s');
  });

  test("a form that stopped needing a user (microsoft, now none) is still sign_in_required signed out while this instance's cached forms list says microsoft: until catalogue.cacheTtlMs has passed", async (t) => {
    // The service's list says microsoft for the open form until the test changes it.
    let openFormAuthType = 'microsoft';
    await using instance = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: editingFormsList((listed) =>
        listed.map((form) =>
          form.id === forms.open ? { ...form, authType: openFormAuthType } : form,
        ),
      ),
    });
    const clock = installCacheClock();
    t.after(() => clock.uninstall());
    const mint = () => instance.mint({ kind: 'form', formId: forms.open });
    assertSignInRequired(await mint());
    openFormAuthType = 'none';
    clock.tick(30_000);
    assertSignInRequired(await mint());
    clock.tick(1);
    const answer = await mint();
    assert.equal(answer.status, 200, answer.text);
  });

  test('an authType this release does not know: a signed-out mint is the service’s to refuse (sent, not sign_in_required), and the signed-out menu, which offers only what surely opens, leaves the form out', async () => {
    await using instance = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      catalogue: { signedOut: true },
      fetch: editingFormsList((listed) =>
        listed.map((form) => (form.id === forms.open ? { ...form, authType: 'passkey' } : form)),
      ),
    });
    const answer = await instance.mint({ kind: 'form', formId: forms.open });
    assert.equal(answer.status, 200, answer.text);
    const menu = await instance.request('/forms');
    assert.equal(menu.status, 200, menu.text);
    assert.deepEqual((menu.body as Catalogue).forms, []);
  });

  test('a signed-out mint of a form that needs a user is sign_in_required before authorize is asked (which may expect a user)', async () => {
    let asked = 0;
    await using strict = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      // A portal's authorize that refuses (or would throw on) a request with nobody signed in.
      authorize: () => {
        asked += 1;
        return false;
      },
    });
    assertSignInRequired(await strict.mint({ kind: 'form', formId: forms.microsoft }));
    assert.equal(asked, 0);
  });

  test('a resolveUser answer that names nobody ({clientId: undefined}, empty strings) is signed out, not one user shared by all', async () => {
    for (const nobody of [
      {},
      { clientId: undefined, userIdentifier: undefined },
      { userIdentifier: '' },
    ]) {
      await using careless = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        resolveUser: () => nobody,
      });
      const mintsBefore = mintCount();
      assertSignInRequired(await careless.mint({ kind: 'form', formId: forms.microsoft }));
      assert.equal(mintCount(), mintsBefore, JSON.stringify(nobody));
      assertSignInRequired(await careless.request('/forms'));
      const open = await careless.mint({ kind: 'form', formId: forms.open });
      assert.equal(MintResponseSchema.parse(open.body).provider, 'none', 'minted with no user');
    }
  });

  test('a resolveUser that answers null is signed out, as undefined is', async () => {
    await using nulled = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => null,
    });
    assertSignInRequired(await nulled.mint({ kind: 'form', formId: forms.microsoft }));
    const open = await nulled.mint({ kind: 'form', formId: forms.open });
    assert.equal(open.status, 200, open.text);
    assert.equal(MintResponseSchema.parse(open.body).provider, 'none', 'minted with no user');
  });

  test('signing in again is all it takes: the same mint then succeeds', async () => {
    const answer = await portal.mint(
      { kind: 'form', formId: forms.microsoft },
      { session: 'adele' },
    );
    assert.equal(answer.status, 200, answer.text);
  });
});

describe('the catalogue with nobody signed in', () => {
  test('is sign_in_required by default, before any upstream read', async () => {
    const before = portal.upstream.length;
    assertSignInRequired(await portal.request('/forms'));
    assert.deepEqual(portal.upstream.slice(before), []);
  });

  test('with catalogue.signedOut, lists only the designer forms that need no user', async () => {
    await using signedOut = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      catalogue: { signedOut: true },
    });
    const answer = await signedOut.request('/forms');
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual((answer.body as Catalogue).forms, [
      { kind: 'form', formId: forms.open, name: 'Feedback', authType: 'none' },
    ]);
  });
});
