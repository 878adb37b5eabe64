import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { formEmbedSessions } from '@form-embed/express';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import type { Request, Response } from 'express';
import { MemoryStore, type Store } from 'express-rate-limit';
import { passesLimit } from '../src/request-limits.js';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

test("Retry-After is the store's reset time in whole seconds rounded up, at least 1 once that time has passed, the window when the store tells none", async (t) => {
  // A portal's store tells the reset time: a shared store's clock may be behind this one's, and
  // express-rate-limit's Store may leave the time out.
  // Date stands still (sockets and the sandbox keep real timers): the store reads it when it
  // counts and the middleware when it answers, and 59.5 s must still be 59.5 s then.
  const clock = FakeTimers.install({ toFake: ['Date'], now: Date.now() });
  t.after(() => clock.uninstall());
  for (const [resetInMs, told] of [
    [59_500, '60'],
    [-5_000, '1'],
    [undefined, '45'],
  ] as const) {
    const store: Store = {
      increment: async () => ({
        totalHits: 99,
        resetTime: resetInMs === undefined ? undefined : new Date(Date.now() + resetInMs),
      }),
      decrement: async () => {},
      resetKey: async () => {},
    };
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 1, windowMs: 45_000, store, prefix: 'retry-after:' },
    });
    const refused = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(refused.status, 429, refused.text);
    assert.equal(refused.headers.get('retry-after'), told, `reset in ${resetInMs} ms`);
  }
});

test('a limit that neither answers nor lets the request through is an error, not a request left without an answer', async () => {
  const req = {} as Request;
  const res = { headersSent: false } as Response;
  await assert.rejects(
    passesLimit(async () => {}, req, res),
    /the limit neither answered nor passed/,
  );
  assert.equal(await passesLimit((_req, _res, next) => next(), req, res), true);
  const answered = { headersSent: true } as Response;
  assert.equal(await passesLimit(async () => {}, req, answered), false);
});

test('two mounts on one limit.store with different windows are refused when the second is created: a store keeps one window', () => {
  const store: Store = {
    increment: async () => ({ totalHits: 1, resetTime: undefined }),
    decrement: async () => {},
    resetKey: async () => {},
  };
  const options = {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    logger: watch.logger,
    resolveUser: () => undefined,
  };
  formEmbedSessions({ ...options, limit: { store, prefix: 'one:', windowMs: 60_000 } });
  formEmbedSessions({ ...options, limit: { store, prefix: 'two:', windowMs: 60_000 } });
  assert.throws(
    () => formEmbedSessions({ ...options, limit: { store, prefix: 'three:', windowMs: 30_000 } }),
    /option `limit\.windowMs` \(30000\) differs from another mount's \(60000\) on the same `limit\.store`/,
  );
});

test("a store of the middleware's own, whose window is limit.windowMs, is not logged as shared with another rate limiter", async () => {
  const store = new MemoryStore();
  try {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { store, prefix: 'own-window:' },
    });
    const logsBefore = watch.logLines.length;
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal(store.windowMs, 60_000);
    assert.deepEqual(
      watch.logLines.slice(logsBefore).filter((line) => /counts in windows of/.test(line.message)),
      [],
    );
  } finally {
    store.shutdown();
  }
});
