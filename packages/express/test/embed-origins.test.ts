import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { formEmbedSessions } from '@form-embed/express';
import { MintResponseSchema, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, fixtureKeys, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const newStarter = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;
const meCount = () => sandbox.control.stats()['GET /api/v1/me'] ?? 0;

before(async () => {
  sandbox = await startSandbox();
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

describe('the embed origins, fetched when the middleware is created (docs/contract.md#organisation-and-embed-origins)', () => {
  test('GET /me is sent when the middleware is created, before any request reaches it', async () => {
    await using _portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal(meCount(), 1);
  });

  test("a first mint does not wait on the organisation's read limit: once the catalogue has spent it, the mint still succeeds", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    await sandbox.control.exhaustRateLimit('reads');
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 200, answer.text);
  });

  test('a failure of that GET /me is logged, once, and creating the middleware does not throw', async () => {
    sandbox.control.fail({ kind: 'reset', scope: 'api' });
    const logsBefore = watch.logLines.length;
    await using _portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logged = watch.logLines.slice(logsBefore);
    assert.deepEqual(
      logged.map(({ message }) => message),
      ['the service could not be reached for GET me'],
    );
    assert.equal(logged[0]?.details?.request, `GET ${sandbox.baseUrl}/api/v1/me`);
  });

  test('a failed refresh keeps the last good origins: the other kind of form still mints without asking again', async () => {
    let meFails = false;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: async (input, init) =>
        meFails && String(input).endsWith('/api/v1/me')
          ? new Response('busy', { status: 503 })
          : fetch(input, init),
    });
    assert.equal((await portal.mint(newStarter, { session: 'adele' })).status, 200);
    await sandbox.control.changeFormsDomain('forms');
    meFails = true;
    const moved = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(moved.status, 500, 'the new forms origin could not be confirmed');
    assert.equal(SessionErrorBodySchema.parse(moved.body).error.code, 'internal_error');
    const upstreamBefore = portal.upstream.length;
    const core = await portal.mint(newStarter, { session: 'adele' });
    assert.equal(core.status, 200, core.text);
    assert.equal(MintResponseSchema.parse(core.body).embedOrigin, sandbox.coreFormsOrigin);
    assert.deepEqual(
      portal.upstream.slice(upstreamBefore).map((call) => new URL(call.url).pathname),
      [`/api/v1/core/forms/${fixtureIds.coreForms.newStarter}/session`],
    );
  });
});

/** `mints` mints of `portal`, each refused invalid_request (not retried), none sent upstream. */
async function refusedWithNoMint(portal: MountedMiddleware, mints: number) {
  for (let i = 0; i < mints; i++) {
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 400, answer.text);
    const { error } = SessionErrorBodySchema.parse(answer.body);
    assert.deepEqual([error.code, error.retryable], ['invalid_request', false]);
  }
  assert.deepEqual(
    portal.upstream.filter((call) => call.method === 'POST'),
    [],
    'no mint upstream',
  );
}

test('an embed origin the element would refuse (http, not on this machine) is logged, and no mint is spent on a frame that would never show: invalid_request, not retried, and no read again for 10 s', async () => {
  const logsBefore = watch.logLines.length;
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: async (input, init) => {
      const answer = await fetch(input, init);
      if (!String(input).endsWith('/api/v1/me')) return answer;
      return Response.json({ ...(await answer.json()), formsOrigin: 'http://forms.example' });
    },
  });
  const meReadsBefore = meCount();
  await refusedWithNoMint(portal, 3);
  assert.equal(meCount(), meReadsBefore, 'no read again within 10 s');
  assert.ok(
    watch.logLines
      .slice(logsBefore)
      .some((line) => line.message.includes('embed origin http://forms.example')),
    JSON.stringify(watch.logLines.slice(logsBefore)),
  );
});

// A name under localhost is this machine to a browser, but Node asks DNS for it.
for (const remote of ['https://service.example', 'http://api.localhost:8080']) {
  test(`a plain-http embed origin on this machine from a service on another (baseUrl ${remote}) is refused: it is the visitor’s own machine, not the service’s`, async () => {
    const logsBefore = watch.logLines.length;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: remote,
      // The sandbox plays the remote service, its embed origins http://127.0.0.1:… as ever.
      fetch: (input, init) => fetch(String(input).replace(remote, sandbox.baseUrl), init),
    });
    await refusedWithNoMint(portal, 1);
    const logged = watch.logLines.slice(logsBefore).map((line) => line.message);
    assert.ok(
      logged.some((message) =>
        message.includes(
          `embed origin ${sandbox.formsOrigin} (GET /api/v1/me) is not https, and the service is on another machine`,
        ),
      ),
      JSON.stringify(logged),
    );
  });
}

test('origins that turn plain http after a good read: the mint that meets them is refused, and no other is sent, nor GET /me, for 10 s', async () => {
  const clock = FakeTimers.install({ toFake: ['Date'] });
  try {
    let plain = false;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: async (input, init) => {
        const answer = await fetch(input, init);
        if (!plain) return answer;
        if (String(input).endsWith('/api/v1/me')) {
          return Response.json({ ...(await answer.json()), formsOrigin: 'http://forms.example' });
        }
        if (init?.method !== 'POST' || !answer.ok) return answer;
        const session = await answer.json();
        const { pathname, search } = new URL(session.embedUrl);
        return Response.json({ ...session, embedUrl: `http://forms.example${pathname}${search}` });
      },
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    plain = true;
    const sent = () => ({
      mints: portal.upstream.filter((call) => call.method === 'POST').length,
      reads: meCount(),
    });
    const before = sent();
    for (let i = 0; i < 3; i++) {
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 400, answer.text);
      assert.equal(SessionErrorBodySchema.parse(answer.body).error.retryable, false);
    }
    assert.deepEqual(sent(), { mints: before.mints + 1, reads: before.reads + 1 });
    clock.tick(9_999);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 400);
    assert.deepEqual(sent(), { mints: before.mints + 1, reads: before.reads + 1 }, 'within 10 s');
    clock.tick(1);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 400);
    assert.deepEqual(sent(), { mints: before.mints + 2, reads: before.reads + 2 }, 'after 10 s');
  } finally {
    clock.uninstall();
  }
});

describe("the Router's embedOrigins(), for a page's Content-Security-Policy", () => {
  test('are the origins GET /me answered, from the read the Router made when it was created', async () => {
    const sessions = formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: () => undefined,
    });
    const origins = { formsOrigin: sandbox.formsOrigin, coreFormsOrigin: sandbox.coreFormsOrigin };
    assert.deepEqual(await sessions.embedOrigins(), origins);
    assert.deepEqual(await sessions.embedOrigins(), origins);
    assert.equal(meCount(), 1);
  });

  test('are undefined, never a rejection, while no read has succeeded', async () => {
    const sessions = formEmbedSessions({
      apiKey: fixtureKeys.revoked,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: () => undefined,
    });
    assert.equal(await sessions.embedOrigins(), undefined);
  });

  test('follow a new forms domain that only another instance’s mints met: read again in the background once 60 s old (and 60 s after a failed read), a page never waiting, and logged', async () => {
    const clock = FakeTimers.install({ toFake: ['Date'] });
    try {
      const logsBefore = watch.logLines.length;
      // This Router's own reads: another test's Router may still be reading from the sandbox.
      let meCalls = 0;
      let meFails = false;
      const sessions = formEmbedSessions({
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        logger: watch.logger,
        resolveUser: () => undefined,
        fetch: async (input, init) => {
          if (!String(input).endsWith('/api/v1/me')) return fetch(input, init);
          meCalls++;
          return meFails ? new Response('busy', { status: 503 }) : fetch(input, init);
        },
      });
      const before = await sessions.embedOrigins();
      assert.deepEqual(before, sandbox.control.embedOrigins());
      await sandbox.control.changeFormsDomain('forms');
      const after = sandbox.control.embedOrigins();
      assert.notEqual(after.formsOrigin, before?.formsOrigin);
      clock.tick(59_999);
      assert.deepEqual(await sessions.embedOrigins(), before, 'younger than 60 s: not read again');
      assert.equal(meCalls, 1);
      clock.tick(1);
      assert.deepEqual(await sessions.embedOrigins(), before, 'the page is not held for the read');
      for (let i = 0; i < 100 && meCalls < 2; i++) await new Promise(setImmediate);
      for (let i = 0; i < 100; i++) {
        if ((await sessions.embedOrigins())?.formsOrigin === after.formsOrigin) break;
        await new Promise(setImmediate);
      }
      assert.deepEqual(await sessions.embedOrigins(), after);
      assert.equal(meCalls, 2, 'one read');
      const changed = watch.logLines
        .slice(logsBefore)
        .filter((line) => line.message.includes('embed origins changed'));
      assert.equal(changed.length, 1, JSON.stringify(watch.logLines.slice(logsBefore)));
      clock.tick(59_000);
      await sessions.embedOrigins();
      assert.equal(meCalls, 2, 'the new origins are young again');
      meFails = true;
      clock.tick(1_000);
      await sessions.embedOrigins();
      for (let i = 0; i < 100 && meCalls < 3; i++) await new Promise(setImmediate);
      assert.equal(meCalls, 3);
      await new Promise(setImmediate);
      assert.deepEqual(await sessions.embedOrigins(), after, 'a failed read keeps them');
      clock.tick(59_999);
      await sessions.embedOrigins();
      assert.equal(meCalls, 3, 'after a failed read, not again for 60 s either');
    } finally {
      clock.uninstall();
    }
  });

  test('a page’s read that finds the same origins does not hide a new forms domain from a mint that took them before it: the mint reads again, and frames on the new one', async () => {
    const clock = FakeTimers.install({ toFake: ['Date'] });
    try {
      let holdMint: Promise<void> | undefined;
      let mintHeld = () => {};
      let meRead = () => {};
      let meAsked = 0;
      await using portal = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        fetch: async (input, init) => {
          if (init?.method === 'POST' && holdMint) {
            mintHeld();
            await holdMint;
          }
          if (String(input).endsWith('/api/v1/me')) meAsked += 1;
          const answer = await fetch(input, init);
          if (String(input).endsWith('/api/v1/me')) meRead();
          return answer;
        },
      });
      // Once the first read has settled (it set when the origins are next read), they age.
      assert.ok(await portal.embedOrigins());
      clock.tick(60_000);
      let release = () => {};
      holdMint = new Promise((resolve) => (release = resolve));
      const held = new Promise<void>((resolve) => (mintHeld = resolve));
      // The mint takes the origins the Router has, then waits upstream.
      const minting = portal.mint(microsoftForm, { session: 'adele' });
      await held;
      // Meanwhile a page has them read again (they are 60 s old), and the pair has not changed.
      const read = new Promise<void>((resolve) => (meRead = resolve));
      await portal.embedOrigins();
      // Asked before it is awaited: were it not, the wait below would never end.
      assert.equal(meAsked, 2, 'the page had them read again');
      await read;
      for (let i = 0; i < 10; i++) await new Promise(setImmediate);
      await sandbox.control.changeFormsDomain('forms');
      release();
      const answer = await minting;
      assert.equal(answer.status, 200, answer.text);
      assert.equal(
        MintResponseSchema.parse(answer.body).embedOrigin,
        sandbox.control.embedOrigins().formsOrigin,
      );
    } finally {
      clock.uninstall();
    }
  });

  test('with the service down since the Router was made, pages are not held: undefined at once, GET /me again in the background at most every 10 s, and the origins once it answers', async () => {
    const clock = FakeTimers.install({ toFake: ['Date'] });
    // GET /me first fails, then hangs until let go, then answers.
    let me: 'fails' | 'hangs' | 'answers' = 'fails';
    let meCalls = 0;
    const hung: (() => void)[] = [];
    let answered: Promise<Response> | undefined;
    const sessions = formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: () => undefined,
      fetch: (input, init) => {
        if (!String(input).endsWith('/api/v1/me')) return fetch(input, init);
        meCalls++;
        if (me === 'answers') {
          answered = fetch(input, init);
          return answered;
        }
        if (me === 'fails') return Promise.resolve(new Response('busy', { status: 503 }));
        return new Promise((_, reject) => hung.push(() => reject(new Error('let go'))));
      },
    });
    const turn = () => new Promise((resolve) => setImmediate(resolve));
    // Settled before the event loop's next turn: a page held on a read would not be.
    const atOnce = () => Promise.race([sessions.embedOrigins(), turn().then(() => 'held')]);
    try {
      assert.equal(await sessions.embedOrigins(), undefined, 'the first read failed');
      assert.equal(meCalls, 2, 'the first read, and one in the background');
      me = 'hangs';
      await turn();
      assert.equal(await atOnce(), undefined);
      assert.equal(meCalls, 2, 'none again within 10 s');
      clock.tick(9_999);
      assert.equal(await atOnce(), undefined);
      assert.equal(meCalls, 2, 'none again until 10 s have passed');
      clock.tick(1);
      assert.equal(await atOnce(), undefined, 'a read starts, and the page does not wait for it');
      assert.equal(hung.length, 1);
      clock.tick(10_000);
      assert.equal(await atOnce(), undefined, 'nor later, while it is still out');
      assert.equal(meCalls, 3, 'no second read while one is out');
      me = 'answers';
      for (const letGo of hung.splice(0)) letGo();
      await turn();
      assert.equal(await atOnce(), undefined, 'the next read starts');
      assert.equal(meCalls, 4);
      await answered;
      const origins = {
        formsOrigin: sandbox.formsOrigin,
        coreFormsOrigin: sandbox.coreFormsOrigin,
      };
      for (let i = 0; i < 100 && (await sessions.embedOrigins()) === undefined; i++) await turn();
      assert.deepEqual(await sessions.embedOrigins(), origins);
      assert.equal(meCalls, 4);
    } finally {
      for (const letGo of hung) letGo();
      clock.uninstall();
    }
  });
});
