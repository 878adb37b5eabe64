import assert from 'node:assert/strict';
import { after, before, type TestContext, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import type { Store } from 'express-rate-limit';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesAtExactly, settlesWithin } from './helpers/settles.js';

// The limit store's bound, on the middleware's own timers (redis-store.test.ts pauses a real
// redis-server for the same path across processes, where time cannot be moved).
const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
// Not the default (250 ms): a limit.storeTimeoutMs the middleware ignored would pass unseen.
const STORE_TIMEOUT_MS = 400;
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** A store whose increment never answers; `asked` resolves on each call. */
function silentStore() {
  let asked: () => void = () => {};
  let next = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const store: Store = {
    increment: () => {
      asked();
      return new Promise(() => {});
    },
    decrement: async () => {},
    resetKey: async () => {},
  };
  return {
    store,
    /** Resolves once the store has been asked (again). */
    async asked() {
      await next;
      next = new Promise<void>((resolve) => {
        asked = resolve;
      });
    },
  };
}

for (const passOnStoreError of [true, false]) {
  test(`a store that never answers holds a mint for limit.storeTimeoutMs exactly, then ${passOnStoreError ? 'lets it through uncounted' : 'refuses it as unavailable'}, and the outage is logged once`, {
    timeout: 10_000,
  }, async (t) => {
    const silent = silentStore();
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: {
        store: silent.store,
        prefix: 'store-timeout:',
        storeTimeoutMs: STORE_TIMEOUT_MS,
        passOnStoreError,
      },
    });
    // Only the middleware's timers: sockets and the portal's server keep real time.
    const clock = FakeTimers.install({
      toFake: ['setTimeout', 'clearTimeout'],
      shouldClearNativeTimers: true,
    });
    t.after(() => clock.uninstall());
    const logsBefore = watch.logLines.length;
    for (let mint = 1; mint <= 2; mint++) {
      const answered = portal.mint(microsoftForm, { session: 'adele' });
      await silent.asked();
      const answer = await settlesAtExactly(clock, answered, STORE_TIMEOUT_MS, `mint ${mint}`);
      if (passOnStoreError) assert.equal(answer.status, 200, answer.text);
      else {
        assert.equal(answer.status, 503, answer.text);
        assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'unavailable');
      }
    }
    const outages = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('the limit store failed'));
    assert.equal(outages.length, 1, 'logged once, not per request');
    // Nor by express-rate-limit's own logger, per request, for each one let through or refused.
    const errors = watch.logLines.slice(logsBefore).filter((line) => line.level === 'error');
    assert.deepEqual(errors, outages);
    const { since, ...details } = outages[0]?.details ?? {};
    assert.deepEqual(details, {
      reason: `no answer within limit.storeTimeoutMs (${STORE_TIMEOUT_MS} ms)`,
    });
    assert.match(String(since), ISO_TIME);
  });
}

/**
 * A portal whose store fails its first increment, so that an outage begins at once, and answers
 * no increment after it; the middleware's timers on a fake clock (sockets and the portal's server
 * keep real time). Once the test ends, even failed, a mint still waiting for the store is let go
 * before the portal closes.
 */
async function portalOnFailingStore(t: TestContext, prefix: string) {
  let asked = 0;
  const onAsked = new Set<() => void>();
  const store: Store = {
    increment: () => {
      asked += 1;
      for (const told of onAsked) told();
      return asked === 1 ? Promise.reject(new Error('connection refused')) : new Promise(() => {});
    },
    decrement: async () => {},
    resetKey: async () => {},
  };
  const portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { store, prefix, storeTimeoutMs: STORE_TIMEOUT_MS },
  });
  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout'],
    shouldClearNativeTimers: true,
  });
  t.after(async () => {
    await clock.tickAsync(10 * STORE_TIMEOUT_MS);
    clock.uninstall();
    await portal.close();
  });
  return {
    portal,
    clock,
    /** Resolves with `what` once the store has been asked `times` in all. */
    askedTimes: <T>(times: number, what: T) =>
      new Promise<T>((resolve) => onAsked.add(() => asked >= times && resolve(what))),
  };
}

test('during an outage one request at a time tries the store: another sent meanwhile goes on at once, uncounted, without asking it', {
  timeout: 10_000,
}, async (t) => {
  // The first request begins the outage; the probe after it gets no answer.
  const { portal, clock, askedTimes } = await portalOnFailingStore(t, 'one-probe:');
  const first = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(first.status, 200, first.text);
  const probeAsked = askedTimes(2, undefined);
  const probe = portal.mint(microsoftForm, { session: 'adele' });
  await probeAsked;
  const askedAgain = askedTimes(3, 'the store was asked again while the probe was out');
  // Answered with the clock still: it did not wait for the store, nor ask it.
  const meanwhile = portal.mint(microsoftForm, { session: 'megan' });
  const step = await Promise.race([
    askedAgain,
    meanwhile.then((answer) => `answered ${answer.status}`),
  ]);
  assert.equal(step, 'answered 200');
  await clock.tickAsync(STORE_TIMEOUT_MS);
  assert.ok(await settlesWithin(probe), "the probe is answered once the store's time is up");
  assert.equal((await probe).status, 200);
});

test('during an outage a signed-out mint, which meets two limits, asks the store once and waits for it limit.storeTimeoutMs in all', {
  timeout: 10_000,
}, async (t) => {
  const { portal, clock, askedTimes } = await portalOnFailingStore(t, 'signed-out-probe:');
  const openForm = { kind: 'form', formId: fixtureIds.forms.open } as const;
  /** A signed-out mint's answer, or word that the store was asked more than `times` in all. */
  const mintAsking = (times: number) =>
    Promise.race([
      askedTimes(times + 1, `the store was asked more than ${times} times`),
      portal.mint(openForm).then((answer) => `answered ${answer.status}`),
    ]);
  // The outage begins at its address's limit; its second limit, all signed-out mints, goes on
  // without asking, the store having failed.
  assert.equal(await mintAsking(1), 'answered 200');
  const probeAsked = askedTimes(2, undefined);
  const probing = mintAsking(2);
  await probeAsked;
  await clock.tickAsync(STORE_TIMEOUT_MS);
  assert.ok(await settlesWithin(probing), 'answered once limit.storeTimeoutMs had passed');
  assert.equal(await probing, 'answered 200');
});

/** A store that answers each increment as `answers` says, in turn: a count, or a failure. */
function scriptedStore(answers: Array<'count' | 'fail'>) {
  const store: Store = {
    increment: async () => {
      if (answers.shift() === 'fail') throw new Error('connection refused');
      return { totalHits: 1, resetTime: new Date(Date.now() + 60_000) };
    },
    decrement: async () => {},
    resetKey: async () => {},
  };
  return store;
}

test('a store whose init failed is initialised again by the next request only, not by every request once it works', async () => {
  let inits = 0;
  const store: Store = {
    ...scriptedStore([]),
    init: () => {
      inits += 1;
      if (inits === 1) throw new Error('still connecting');
    },
  };
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { store, prefix: 'init-again:', storeTimeoutMs: STORE_TIMEOUT_MS },
  });
  const logsBefore = watch.logLines.length;
  for (let mint = 1; mint <= 3; mint++) {
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 200, answer.text);
  }
  assert.equal(inits, 2, 'once when mounted, failing, and once more by the first request');
  assert.deepEqual(
    watch.logLines.slice(logsBefore).filter((line) => line.level !== 'info'),
    [],
    'a failed init is no outage',
  );
});

/**
 * Mints `mints` times through a store answering `script`, as adele (signed in) or signed out, and
 * answers each `counting resumed` line's requestsNotWaitedFor.
 */
async function notWaitedFor(
  script: Array<'count' | 'fail'>,
  mints: number,
  who: 'adele' | 'signed out',
): Promise<unknown[]> {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { store: scriptedStore(script), prefix: `${who}:`, storeTimeoutMs: STORE_TIMEOUT_MS },
  });
  const logsBefore = watch.logLines.length;
  for (let mint = 1; mint <= mints; mint++) {
    const answer =
      who === 'adele'
        ? await portal.mint(microsoftForm, { session: 'adele' })
        : await portal.mint({ kind: 'form', formId: fixtureIds.forms.open });
    assert.equal(answer.status, 200, answer.text);
  }
  return watch.logLines
    .slice(logsBefore)
    .filter((line) => /counting resumed/.test(line.message))
    .map((line) => line.details?.requestsNotWaitedFor);
}

test('the requests not waited for, logged when an outage ends, are counted for that outage only', async () => {
  // Outage one: a failure and a probe that fails; outage two: a failure.
  assert.deepEqual(
    await notWaitedFor(['fail', 'fail', 'count', 'fail', 'count'], 5, 'adele'),
    [2, 1],
  );
});

test('a signed-out mint not waited for counts once, though it meets two limits (its address, then all signed-out mints)', async () => {
  // Two mints meet the outage at their address's limit; the third ends it.
  assert.deepEqual(await notWaitedFor(['fail', 'fail', 'count', 'count'], 3, 'signed out'), [2]);
});

test('a signed-out mint that meets the outage at its second limit (all signed-out mints) is counted too', async () => {
  // The first mint's address is counted, its shared count fails; the second ends the outage.
  assert.deepEqual(await notWaitedFor(['count', 'fail', 'count', 'count'], 2, 'signed out'), [1]);
});

test('a second outage within a minute of the first is logged as it begins and ends, each line naming its outage by since', async () => {
  // The same reason twice, and the same figures at each end: only `since` tells them apart.
  const store = scriptedStore(['fail', 'count', 'fail', 'count']);
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { store, prefix: 'two-outages:', storeTimeoutMs: STORE_TIMEOUT_MS },
  });
  const clock = FakeTimers.install({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 9) });
  try {
    const logsBefore = watch.logLines.length;
    for (let mint = 1; mint <= 4; mint++) {
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 200, answer.text);
      clock.tick(5_000);
    }
    const outageLines = watch.logLines
      .slice(logsBefore)
      .filter((line) => /^the limit store (failed|answers again)/.test(line.message))
      .map((line) => `${line.level} ${line.details?.since}`);
    assert.deepEqual(outageLines, [
      'error 2026-11-28T09:00:00.000Z',
      'warn 2026-11-28T09:00:00.000Z',
      'error 2026-11-28T09:00:10.000Z',
      'warn 2026-11-28T09:00:10.000Z',
    ]);
  } finally {
    clock.uninstall();
  }
});
