import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, type TestContext, test } from 'node:test';
import { formEmbedSessions } from '@form-embed/express';
import { mintPath, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { MemoryStore, rateLimit } from 'express-rate-limit';
import { createServer } from './helpers/create-server.js';
import {
  mountMiddleware,
  openForm,
  PORTAL_SESSION_HEADER,
  resolvePortalUser,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const mintCount = () => sandbox.control.stats()['POST /api/v1/forms/{formId}/session'] ?? 0;

before(async () => {
  sandbox = await startSandbox();
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

test('the per-user limit holds under 30 concurrent mints: exactly the limit succeed, the rest are rate_limited with Retry-After and never reach the service', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 10 },
  });
  const mintsBefore = mintCount();
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => portal.mint(microsoftForm, { session: 'adele' })),
  );
  const ok = answers.filter((answer) => answer.status === 200);
  const limited = answers.filter((answer) => answer.status === 429);
  assert.equal(ok.length, 10);
  assert.equal(limited.length, 20);
  for (const answer of limited) {
    const { error } = SessionErrorBodySchema.parse(answer.body);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, true);
    const retryAfter = Number(answer.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60, `${retryAfter}`);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('x-ratelimit-limit'), null);
  }
  assert.equal(mintCount() - mintsBefore, 10);
});

test('one user at the limit does not limit another user', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 2 },
  });
  const adele = await Promise.all(
    Array.from({ length: 3 }, () => portal.mint(microsoftForm, { session: 'adele' })),
  );
  assert.deepEqual(adele.map((answer) => answer.status).sort(), [200, 200, 429]);
  const megan = await portal.mint(microsoftForm, { session: 'megan' });
  assert.equal(megan.status, 200, megan.text);
});

/**
 * Stops `Date` until the test ends (sockets and the sandbox keep real timers): a window's reset
 * time and the Retry-After told from it are read on one still clock, so the wait is the whole
 * window however long the requests take.
 */
function stillDate(t: TestContext) {
  const clock = FakeTimers.install({ toFake: ['Date'], now: Date.now() });
  t.after(() => clock.uninstall());
  return clock;
}

test('the default limit is 30 mints per user per minute', async (t) => {
  stillDate(t);
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
  });
  const answers = await Promise.all(
    Array.from({ length: 32 }, () => portal.mint(microsoftForm, { session: 'adele' })),
  );
  assert.equal(answers.filter((answer) => answer.status === 200).length, 30);
  const limited = answers.find((answer) => answer.status === 429);
  assert.equal(limited?.headers.get('retry-after'), '60');
});

test('refusals count too: a user the portal refuses cannot have authorize asked without bound', async () => {
  let asked = 0;
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 2 },
    authorize: () => {
      asked += 1;
      return false;
    },
  });
  const statuses = [];
  for (let i = 0; i < 4; i += 1) {
    statuses.push((await portal.mint(microsoftForm, { session: 'adele' })).status);
  }
  assert.deepEqual(statuses, [403, 403, 429, 429]);
  assert.equal(asked, 2);
  assert.equal((await portal.mint(microsoftForm, { session: 'megan' })).status, 403);
});

test('the mount path in another case counts under the same limit: Express matches it without case', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 2 },
  });
  const mintOn = (mountPath: string) =>
    fetch(
      `${portal.server.endpoint.replace('/form-sessions', mountPath)}${mintPath(microsoftForm)}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
          [PORTAL_SESSION_HEADER]: 'adele',
        },
        body: '{}',
      },
    );
  const logsBefore = watch.logLines.length;
  const statuses = [];
  for (const mountPath of [
    '/form-sessions',
    '/Form-Sessions',
    '/FORM-SESSIONS',
    '/fOrm-sessions',
  ]) {
    const answer = await mintOn(mountPath);
    watch.record(answer, await answer.text());
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [200, 200, 429, 429]);
  // One mount path in four cases, not four mount paths: nothing asks for limit.prefix.
  const told = watch.logLines.slice(logsBefore).filter((line) => /mount path/.test(line.message));
  assert.deepEqual(told, []);
});

test('a mount path with parameters counts one user once, not once per value, and asks for limit.prefix in the log', async () => {
  const logged: string[] = [];
  const middleware = formEmbedSessions({
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: resolvePortalUser,
    limit: { mints: 1 },
    logger: { warn: () => {}, error: (message) => logged.push(message) },
  });
  await using server = await createServer(middleware, '/t/:org/form-sessions');
  const statuses = [];
  for (const org of ['a', 'b', 'c']) {
    const answer = await fetch(
      `${server.endpoint.replace(':org', org)}${mintPath(microsoftForm)}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PORTAL_SESSION_HEADER]: 'adele' },
        body: '{}',
      },
    );
    watch.record(answer, await answer.text());
    statuses.push(answer.status);
  }
  assert.deepEqual(statuses, [200, 429, 429]);
  assert.equal(logged.filter((line) => line.includes('limit.prefix')).length, 1, logged.join('\n'));
});

test('a window longer than maxRetryAfterSeconds is told as that cap in Retry-After', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1, windowMs: 600_000 },
    maxRetryAfterSeconds: 30,
  });
  assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
  const refused = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(refused.status, 429, refused.text);
  assert.equal(refused.headers.get('retry-after'), '30');
});

test('limit.windowMs is the window of all three limits: Retry-After tells it, and each counts afresh once it has passed, not before', async (t) => {
  const clock = stillDate(t);
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 2, catalogue: 1, signedOutMints: 1, windowMs: 90_000 },
  });
  const statusAndWait = async (answer: Promise<{ status: number; headers: Headers }>) => {
    const { status, headers } = await answer;
    return [status, headers.get('retry-after')];
  };
  const mint = () => statusAndWait(portal.mint(microsoftForm, { session: 'adele' }));
  const menu = () => statusAndWait(portal.request('/forms', { session: 'adele' }));
  const signedOut = () => statusAndWait(portal.mint(openForm));
  assert.deepEqual(
    [await mint(), await mint(), await mint()],
    [
      [200, null],
      [200, null],
      [429, '90'],
    ],
  );
  assert.deepEqual(
    [await menu(), await menu()],
    [
      [200, null],
      [429, '90'],
    ],
  );
  assert.deepEqual(
    [await signedOut(), await signedOut()],
    [
      [200, null],
      [429, '90'],
    ],
  );
  clock.tick(89_999);
  assert.deepEqual(await mint(), [429, '1'], 'not before the window has passed');
  clock.tick(1);
  assert.deepEqual(
    [await mint(), await menu(), await signedOut()],
    [
      [200, null],
      [200, null],
      [200, null],
    ],
  );
});

describe('the limit key', () => {
  test('folds case: Alice@Example.com and alice@example.com share one count, and the service gets the identifier as resolveUser gave it', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => ({ userIdentifier: req.get('x-upn') as string }),
      limit: { mints: 2 },
    });
    const as = (upn: string) => portal.mint(openForm, { headers: { 'x-upn': upn } });
    assert.equal((await as('Alice@Example.com')).status, 200);
    assert.equal((await as('alice@example.com')).status, 200);
    assert.equal((await as('ALICE@EXAMPLE.COM')).status, 429);
    assert.equal((await as('bob@example.com')).status, 200);
    const sent = portal.upstream
      .filter((call) => call.method === 'POST')
      .map((call) => (call.body as { user: { userIdentifier: string } }).user.userIdentifier);
    assert.deepEqual(sent, ['Alice@Example.com', 'alice@example.com', 'bob@example.com']);
  });

  // toLowerCase() folds KELVIN SIGN into k: where users choose their identifiers, one could spend
  // another's count. Only A to Z are folded.
  test('folds A to Z only: \u212aim@example.com (KELVIN SIGN) does not spend kim@example.com’s count', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => ({ userIdentifier: decodeURIComponent(req.get('x-upn') as string) }),
      limit: { mints: 1 },
    });
    const as = (upn: string) =>
      portal.mint(openForm, { headers: { 'x-upn': encodeURIComponent(upn) } });
    assert.equal((await as('\u212aim@example.com')).status, 200);
    assert.equal((await as('\u212aim@example.com')).status, 429);
    assert.equal((await as('kim@example.com')).status, 200);
  });

  test('the client is part of who counts: one identifier in two clients is two users', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => ({
        clientId: req.get('x-client') as string,
        userIdentifier: 'sam@example.com',
      }),
      limit: { mints: 2 },
    });
    const as = (clientId: string) => portal.mint(openForm, { headers: { 'x-client': clientId } });
    const { contoso, fabrikam } = fixtureIds.clients;
    assert.deepEqual(
      [(await as(contoso)).status, (await as(contoso)).status, (await as(fabrikam)).status],
      [200, 200, 200],
    );
    assert.equal((await as(contoso)).status, 429);
  });

  test('the tenant is part of who counts: one identifier in two tenants is two users', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => ({
        microsoftTenantId: req.get('x-tenant') as string,
        userIdentifier: 'sam@example.com',
      }),
      limit: { mints: 1 },
    });
    const as = (tenant: string) => portal.mint(openForm, { headers: { 'x-tenant': tenant } });
    assert.deepEqual([(await as('tenant-a')).status, (await as('tenant-b')).status], [200, 200]);
    assert.equal((await as('tenant-a')).status, 429);
  });

  test('mints and catalogue reads count apart, also in one shared store', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 1, catalogue: 1, store: new MemoryStore(), prefix: 'one-store:' },
    });
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 200);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 429);
  });

  describe('a store shared beyond one router', () => {
    test('a store without limit.prefix is refused: instances and portals must agree on their keys', () => {
      assert.throws(
        () =>
          formEmbedSessions({
            apiKey: sandbox.apiKey,
            baseUrl: sandbox.baseUrl,
            resolveUser: () => undefined,
            // @ts-expect-error: the types refuse it as well, for code that is type-checked.
            limit: { store: new MemoryStore() },
          }),
        /option `limit\.prefix` is required with `limit\.store`/,
      );
    });

    test('two routers serving under one store and one prefix are logged once; one rebuilt in place of another is not', async () => {
      const store = new MemoryStore();
      const options = { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl };
      const sharing = /two formEmbedSessions routers in this process count under one limit\.store/;
      const told = () => watch.logLines.filter((line) => sharing.test(line.message)).length;
      const before = told();
      // A test's fresh app, or a hot reload: the second router takes the first one's place.
      for (const _rebuild of [1, 2]) {
        await using portal = await mountMiddleware(watch, {
          ...options,
          limit: { store, prefix: 'rebuilt:' },
        });
        // More than once: the one that took the place serves on, and the old one never again.
        for (const _mint of [1, 2]) {
          assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
        }
      }
      assert.equal(told(), before, 'a rebuilt router is not two routers');
      // Two mounts of one portal given one prefix: both serve, in turn.
      const second = formEmbedSessions({
        ...options,
        resolveUser: resolvePortalUser,
        logger: watch.logger,
        limit: { store, prefix: 'shared:' },
      });
      try {
        await using portal = await mountMiddleware(
          watch,
          { ...options, limit: { store, prefix: 'shared:' } },
          (app) => app.use('/second', second),
        );
        const path = mintPath(microsoftForm);
        for (const mount of ['/form-sessions', '/second', '/form-sessions', '/second']) {
          const answer = await fetch(
            `${portal.server.endpoint.replace('/form-sessions', mount)}${path}`,
            {
              method: 'POST',
              headers: { 'content-type': 'application/json', [PORTAL_SESSION_HEADER]: 'adele' },
              body: '{}',
            },
          );
          assert.equal(answer.status, 200, await answer.text());
        }
        assert.equal(told(), before + 1);
      } finally {
        store.shutdown();
      }
    });

    for (const order of ['made before', 'made after'] as const) {
      test(`the portal's own rate limiter on the same store object, with another window, ${order} the router, is logged once, not once a minute`, async (t) => {
        const clock = stillDate(t);
        const store = new MemoryStore();
        const ownLimiter = () => rateLimit({ windowMs: 15 * 60_000, limit: 5, store });
        const before = watch.logLines.length;
        const own = order === 'made before' ? ownLimiter() : undefined;
        try {
          await using portal = await mountMiddleware(
            watch,
            {
              apiKey: sandbox.apiKey,
              baseUrl: sandbox.baseUrl,
              limit: { store, prefix: 'shared:' },
            },
            (app) => app.use('/login', own ?? ownLimiter()),
          );
          for (let i = 0; i < 3; i++) {
            assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
          }
          // Past the minute in which the same line is logged once anyway (repeated-lines.ts).
          clock.tick(61_000);
          assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
          const told = watch.logLines
            .slice(before)
            .filter((line) => /another rate limiter uses the same store object/.test(line.message));
          assert.equal(told.length, 1, JSON.stringify(watch.logLines.slice(before)));
          assert.match(
            told[0]?.message ?? '',
            /windows of 900000 ms, not limit\.windowMs \(60000 ms\)/,
          );
        } finally {
          store.shutdown();
        }
      });
    }
  });

  test('signed out, each client address counts apart; an IPv6 address counts by its /56 network', async () => {
    await using portal = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, limit: { mints: 2 } },
      (app) => app.set('trust proxy', 'loopback'),
    );
    const from = async (address: string) =>
      (await portal.mint(openForm, { headers: { 'x-forwarded-for': address } })).status;
    assert.deepEqual(
      [await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.1')],
      [200, 200, 429],
    );
    assert.equal(await from('203.0.113.2'), 200);
    // 2001:db8:0:1xx::/56 is one network: its second address shares the first one's count.
    assert.deepEqual(
      [await from('2001:db8:0:100::1'), await from('2001:db8:0:1ff::2')],
      [200, 200],
    );
    assert.equal(await from('2001:db8:0:1ab::3'), 429);
    assert.equal(await from('2001:db8:0:200::1'), 200);
  });

  test("signed out, a proxy that writes the client's address with its port (Azure App Service's X-Forwarded-For, `203.0.113.1:50412`, a new port per connection) counts the address once, whatever the port", async () => {
    await using portal = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, limit: { mints: 2 } },
      (app) => app.set('trust proxy', 'loopback'),
    );
    const from = async (address: string) =>
      (await portal.mint(openForm, { headers: { 'x-forwarded-for': address } })).status;
    assert.deepEqual(
      [await from('203.0.113.1:50412'), await from('203.0.113.1:50413'), await from('203.0.113.1')],
      [200, 200, 429],
    );
    assert.deepEqual(
      [await from('[2001:db8:0:100::1]:50412'), await from('[2001:db8:0:1ff::2]:50413')],
      [200, 200],
    );
    assert.equal(await from('2001:db8:0:1ab::3'), 429);
  });

  test('signed out, mints are counted per client address, apart from signed-in users', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 2 },
    });
    const signedOut = await Promise.all(Array.from({ length: 3 }, () => portal.mint(openForm)));
    assert.deepEqual(signedOut.map((answer) => answer.status).sort(), [200, 200, 429]);
    const refused = signedOut.find((answer) => answer.status === 429);
    assert.match(SessionErrorBodySchema.parse(refused?.body).error.message, /client address/);
    assert.equal((await portal.mint(openForm, { session: 'adele' })).status, 200);
  });

  describe("warns once when Express's trust proxy makes the client address untrue", () => {
    const cases = [
      {
        setting: 'true, which takes X-Forwarded-For as the client wrote it',
        trustProxy: true,
        warning: /'trust proxy' is true/,
      },
      {
        setting: 'unset, with a proxy in front (X-Forwarded-For)',
        trustProxy: false,
        warning: /'trust proxy' is not set/,
      },
      { setting: 'a hop count, as the README asks', trustProxy: 1, warning: undefined },
      {
        // Set, to a proxy's address that is not this sender's: the address is the sender's own,
        // and trust proxy is not unset.
        setting: "the proxy's address, and a sender that is not it writes X-Forwarded-For",
        trustProxy: '10.0.0.1',
        warning: undefined,
      },
      {
        setting: 'unset, with no proxy in front (no X-Forwarded-For)',
        trustProxy: false,
        warning: undefined,
        direct: true,
      },
      {
        // @fastify/express copies Fastify's own req.ip (its trustProxy) onto the request the
        // Router gets: the address is the client's, whatever Express's own setting.
        setting:
          "unset, with the client's address set on req.ip before the Router (Fastify's trustProxy, through @fastify/express)",
        trustProxy: false,
        warning: undefined,
        ipFromProxy: true,
      },
    ];
    for (const { setting, trustProxy, warning, direct, ipFromProxy } of cases) {
      test(`trust proxy ${setting}: ${warning ? 'one warning' : 'no warning'}`, async () => {
        const own = new SecretWatch();
        try {
          await using portal = await mountMiddleware(
            own,
            { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
            (app) => {
              app.set('trust proxy', trustProxy);
              if (!ipFromProxy) return;
              app.use((req, _res, next) => {
                Object.defineProperty(req, 'ip', { value: req.get('x-forwarded-for') });
                next();
              });
            },
          );
          for (const address of ['203.0.113.1', '203.0.113.2', '203.0.113.3']) {
            const headers = direct ? {} : { 'x-forwarded-for': address };
            const answer = await portal.mint(openForm, { headers });
            assert.equal(answer.status, 200, answer.text);
          }
          // A signed-in user is counted by who they are: no address, no warning.
          assert.equal((await portal.mint(openForm, { session: 'adele' })).status, 200);
          const warnings = own.logLines.filter((line) => /trust proxy/.test(line.message));
          assert.deepEqual(
            warnings.map((line) => line.level),
            warning ? ['warn'] : [],
          );
          if (warning) assert.match(warnings[0]?.message ?? '', warning);
        } finally {
          await own.assertNoSecret([sandbox.apiKey]);
        }
      });
    }

    test("trust proxy a hop count with no proxy in front (a request with no X-Forwarded-For): one warning, as any client's own X-Forwarded-For is believed", async () => {
      const own = new SecretWatch();
      try {
        await using portal = await mountMiddleware(
          own,
          { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, limit: { mints: 2 } },
          (app) => app.set('trust proxy', 1),
        );
        // The portal's own visitors come straight in: nothing adds X-Forwarded-For.
        assert.equal((await portal.mint(openForm)).status, 200);
        assert.equal((await portal.mint(openForm)).status, 200);
        // So a visitor who writes one is counted under any address it names.
        for (const address of ['203.0.113.1', '203.0.113.2']) {
          const answer = await portal.mint(openForm, { headers: { 'x-forwarded-for': address } });
          assert.equal(answer.status, 200, answer.text);
        }
        const warnings = own.logLines.filter((line) => /trust proxy/.test(line.message));
        assert.deepEqual(
          warnings.map((line) => line.level),
          ['warn'],
        );
        assert.match(warnings[0]?.message ?? '', /no X-Forwarded-For/);
      } finally {
        await own.assertNoSecret([sandbox.apiKey]);
      }
    });
  });
});

describe('the catalogue limit', () => {
  test('GET /forms allows 30 requests per user a minute by default, counted apart from mints', async (t) => {
    stillDate(t);
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 1 },
    });
    const answers = await Promise.all(
      Array.from({ length: 31 }, () => portal.request('/forms', { session: 'adele' })),
    );
    assert.equal(answers.filter((answer) => answer.status === 200).length, 30);
    const refused = answers.find((answer) => answer.status === 429);
    assert.equal(SessionErrorBodySchema.parse(refused?.body).error.code, 'rate_limited');
    assert.equal(refused?.headers.get('retry-after'), '60');
    assert.equal((await portal.request('/forms', { session: 'megan' })).status, 200);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
  });

  test('limit.catalogue sets it', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { catalogue: 1 },
    });
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 200);
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 429);
  });
});
