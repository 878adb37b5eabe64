import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { MintResponseSchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import {
  editingAnswers,
  type MountedMiddleware,
  mountMiddleware,
  portalUsers,
  resolvePortalUser,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const newStarter = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    // One router for the whole file: its tests' mints share one user's count and one minute,
    // which the default of 10 would reach as tests are added. The limits have tests of their own.
    limit: { mints: 1000 },
  });
});

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

const meCount = () => sandbox.control.stats()['GET /api/v1/me'] ?? 0;
const mintCount = () => sandbox.control.stats()['POST /api/v1/forms/{formId}/session'] ?? 0;

test('a designer form mint answers exactly {embedUrl, embedOrigin, provider, expiresIn}, as JSON in UTF-8, no-store, on the forms embed origin', async () => {
  const answer = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(answer.status, 200, answer.text);
  const body = MintResponseSchema.parse(answer.body);
  assert.deepEqual(Object.keys(answer.body as object).sort(), [
    'embedOrigin',
    'embedUrl',
    'expiresIn',
    'provider',
  ]);
  assert.equal(body.embedOrigin, sandbox.formsOrigin);
  assert.ok(body.embedUrl.startsWith(`${sandbox.formsOrigin}/`));
  assert.equal(body.provider, 'microsoft');
  assert.equal(body.expiresIn, 120);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  // The body is written with res.end, not res.json: the type is set by hand.
  assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8');
});

test('a session of a provider this release does not know is passed on as it is, logged once: the mint is spent, and nothing the middleware or the element decides reads provider', async () => {
  // The real sandbox's FormSession with a provider the contract's enum does not name yet: in
  // snake_case as its SessionError codes are, or camelCase as environment's values are.
  for (const provider of ['passkey', 'entraExternalId']) {
    await using grown = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: editingAnswers(
        (url, init) => init?.method === 'POST' && url.pathname.endsWith('/session'),
        (session) => ({ ...session, provider }),
      ),
    });
    const logsBefore = watch.logLines.length;
    const mintsBefore = mintCount();
    for (let i = 0; i < 2; i++) {
      const answer = await grown.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 200, answer.text);
      const body = MintResponseSchema.parse(answer.body);
      assert.equal(body.provider, provider);
      assert.ok(body.embedUrl.startsWith(`${sandbox.formsOrigin}/`));
      assert.equal(body.expiresIn, 120);
    }
    assert.equal(mintCount() - mintsBefore, 2, 'one mint each, none retried');
    const core = await grown.mint(newStarter, { session: 'adele' });
    assert.equal(MintResponseSchema.parse(core.body).provider, provider, core.text);
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.includes(`"${provider}"`));
    assert.equal(told.length, 1, JSON.stringify(watch.logLines.slice(logsBefore)));
    assert.ok(told[0]?.message.includes(`provider "${provider}"`), told[0]?.message);
  }
});

test('a Core form mint answers on the Core forms embed origin', async () => {
  const answer = await portal.mint(newStarter, { session: 'adele' });
  assert.equal(answer.status, 200, answer.text);
  const body = MintResponseSchema.parse(answer.body);
  assert.equal(body.embedOrigin, sandbox.coreFormsOrigin);
  assert.ok(body.embedUrl.startsWith(`${sandbox.coreFormsOrigin}/`));
});

test("the organisation's X-RateLimit-* headers and the handle field never reach the browser", async () => {
  const answer = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(answer.status, 200);
  const names = [...answer.headers.keys()];
  assert.deepEqual(
    names.filter((name) => name.startsWith('x-ratelimit') || name.startsWith('ratelimit')),
    [],
  );
  assert.ok(!answer.text.includes('formSessionHandle'));
});

test('the user comes only from resolveUser: a user, tenant or client named by the browser is ignored', async () => {
  const browserClaims = {
    user: {
      clientId: fixtureIds.clients.fabrikam,
      microsoftTenantId: fixtureIds.tenants.fabrikam,
      userIdentifier: fixtureIds.users.megan,
    },
    clientId: fixtureIds.clients.fabrikam,
    microsoftTenantId: fixtureIds.tenants.fabrikam,
    userIdentifier: fixtureIds.users.megan,
  };
  const before = portal.upstream.length;
  const answer = await portal.mint(microsoftForm, { session: 'adele', body: browserClaims });
  assert.equal(answer.status, 200, answer.text);
  const sent = portal.upstream.slice(before).filter((call) => call.method === 'POST');
  assert.deepEqual(
    sent.map((call) => call.body),
    [{ user: portalUsers.adele }],
  );
  // The framed page itself says who the service signed in.
  const { embedUrl } = MintResponseSchema.parse(answer.body);
  const page = await (await fetch(embedUrl)).text();
  assert.match(page, new RegExp(`Signed in as ${fixtureIds.users.adele}`));
  assert.ok(!page.includes(fixtureIds.users.megan));
});

test("a field resolveUser left blank ('' or spaces) is not sent upstream: the contract does not say the service reads it as absent; spaces around a value are trimmed", async () => {
  await using portalWithBlanks = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: () => ({
      microsoftTenantId: ' ',
      clientId: ` ${fixtureIds.clients.contoso}`,
      userIdentifier: `  ${fixtureIds.users.adele}\t`,
    }),
  });
  const answer = await portalWithBlanks.mint(microsoftForm);
  assert.equal(answer.status, 200, answer.text);
  const sent = portalWithBlanks.upstream.filter((call) => call.method === 'POST');
  assert.deepEqual(
    sent.map((call) => call.body),
    [{ user: { clientId: fixtureIds.clients.contoso, userIdentifier: fixtureIds.users.adele } }],
  );
});

test('embed origins the service writes with a trailing slash or an upper-case host are the same origins: mints go on', async () => {
  const loosely: typeof fetch = async (input, init) => {
    const answer = await fetch(input, init);
    if (!String(input).endsWith('/api/v1/me')) return answer;
    const organisation = await answer.json();
    organisation.formsOrigin = `${organisation.formsOrigin.toUpperCase().replace('HTTP:', 'http:')}/`;
    organisation.coreFormsOrigin = `${organisation.coreFormsOrigin}/`;
    return Response.json(organisation, { status: answer.status });
  };
  await using portalLoose = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: loosely,
  });
  for (const target of [microsoftForm, newStarter]) {
    const answer = await portalLoose.mint(target, { session: 'adele' });
    assert.equal(answer.status, 200, answer.text);
    const { embedUrl, embedOrigin } = MintResponseSchema.parse(answer.body);
    assert.equal(new URL(embedUrl).origin, embedOrigin);
  }
});

test('with nobody signed in, a browser-sent user is still ignored: the request goes up with no user, and a form that needs one is sign_in_required', async () => {
  const before = portal.upstream.length;
  const browserClaims = {
    user: { clientId: fixtureIds.clients.contoso, userIdentifier: fixtureIds.users.adele },
  };
  const open = await portal.mint(
    { kind: 'form', formId: fixtureIds.forms.open },
    { body: browserClaims },
  );
  assert.equal(open.status, 200, open.text);
  assert.equal(MintResponseSchema.parse(open.body).provider, 'none');
  const refused = await portal.mint(microsoftForm, { body: browserClaims });
  assert.equal(refused.status, 401);
  assert.equal((refused.body as { error: { code: string } }).error.code, 'sign_in_required');
  const sent = portal.upstream.slice(before).filter((call) => call.method === 'POST');
  assert.deepEqual(
    sent.map((call) => call.body),
    [{}],
  );
});

test('one upstream request per mint: the embed origins come from the cache', async () => {
  const mintsBefore = mintCount();
  const meBefore = meCount();
  for (let i = 0; i < 4; i += 1) {
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 200, answer.text);
  }
  assert.equal(mintCount() - mintsBefore, 4);
  assert.equal(meCount() - meBefore, 0);
});

test('concurrent first mints make exactly one GET /me (single-flight): sent while no origins are cached, they share one read', async () => {
  // The GET /me of the middleware's creation fails, so no origins are cached when the mints
  // arrive (the harness waits for that read before it sends anything); the next GET /me is held
  // until every mint has resolved its user, and a turn more, in which each asks for the origins.
  let meCalls = 0;
  let usersResolved = 0;
  let arrived = () => {};
  const allArrived = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const meBefore = meCount();
  await using fresh = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 100 },
    resolveUser: (req) => {
      if (++usersResolved === 20) arrived();
      return resolvePortalUser(req);
    },
    fetch: async (input, init) => {
      if (!String(input).endsWith('/api/v1/me')) return fetch(input, init);
      meCalls += 1;
      if (meCalls === 1) return new Response('busy', { status: 503 });
      await allArrived;
      await new Promise(setImmediate);
      return fetch(input, init);
    },
  });
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fresh.mint(i % 2 === 0 ? microsoftForm : newStarter, { session: 'adele' }),
    ),
  );
  assert.deepEqual(
    answers.map((answer) => answer.status),
    Array(20).fill(200),
  );
  assert.equal(meCalls, 2, 'the failed read at creation, then one for all twenty mints');
  assert.equal(meCount() - meBefore, 1);
});

test('a failed GET /me is not kept: the first mint asks again and succeeds', async () => {
  const meBefore = meCount();
  // The GET /me the middleware sends when it is created gets an answer that is not JSON.
  sandbox.control.fail({ kind: 'notJson', scope: 'api', count: 1 });
  await using fresh = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
  });
  const answer = await fresh.mint(microsoftForm, { session: 'adele' });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(meCount() - meBefore, 2);
});
