import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import { defaultServicePaths, PlainErrorBodySchema } from '@form-embed/protocol';
import FakeTimers from '@sinonjs/fake-timers';
import { CONTROL_PATH, fixtureIds, fixtureKeys, type Sandbox, startSandbox } from '../src/index.js';
import { call, requestSession, sandboxFor, sessionError, sessionPath } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const otherOrgForm = { kind: 'form', formId: fixtureIds.forms.otherOrg } as const;

/**
 * Freezes `Date` (so the sandbox's clock moves only by advanceClock) until the test ends, at
 * `now` (ms since the epoch, 0 unless told).
 */
function stillDate(t: TestContext, now = 0) {
  const clock = FakeTimers.install({ toFake: ['Date'], now });
  t.after(() => clock.uninstall());
  return clock;
}

/** `count` concurrent mints of the microsoft form for Adele. */
function mints(sandbox: Sandbox, count: number) {
  return Promise.all(
    Array.from({ length: count }, () => requestSession(sandbox, microsoftForm, adele)),
  );
}

/** One mint of the microsoft form for Adele, its body cancelled: what its headers say. */
async function oneMint(sandbox: Sandbox) {
  const answer = await requestSession(sandbox, microsoftForm, adele);
  await answer.body?.cancel();
  return answer;
}

async function cancel(answers: Response[]) {
  await Promise.all(answers.map((r) => (r.bodyUsed ? undefined : r.body?.cancel())));
}

describe('rate limits per key: token buckets', () => {
  test('authenticated answers carry X-RateLimit-Limit and a falling X-RateLimit-Remaining', async (t) => {
    const sandbox = await sandboxFor(t);
    const first = await call(sandbox, defaultServicePaths.me);
    const second = await call(sandbox, defaultServicePaths.me);
    assert.equal(first.headers.get('x-ratelimit-limit'), '200');
    assert.equal(first.headers.get('x-ratelimit-remaining'), '199');
    assert.equal(second.headers.get('x-ratelimit-remaining'), '198');
    const mint = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(mint.headers.get('x-ratelimit-limit'), '120');
    assert.equal(mint.headers.get('x-ratelimit-remaining'), '119');
  });

  test('mints: a key gets a burst of 120, then rate_limited (429, retryable) with Retry-After 1, the wait for one token', async (t) => {
    const sandbox = await sandboxFor(t);
    // A still Date: no token comes back however long the burst takes here.
    stillDate(t);
    const answers = await mints(sandbox, 121);
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 120);
    const limited = answers.find((r) => r.status === 429);
    assert.ok(limited);
    const error = await sessionError(limited);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, true);
    // 120 a minute: one token every 0.5 s, told as 1 whole second.
    assert.equal(limited.headers.get('retry-after'), '1');
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    await cancel(answers);
  });

  test('reads: a key gets a burst of 200, then 429 {error} with Retry-After 1; limits are per key', async (t) => {
    const sandbox = await sandboxFor(t);
    stillDate(t);
    const answers = await Promise.all(
      Array.from({ length: 201 }, () => call(sandbox, defaultServicePaths.forms)),
    );
    assert.equal(answers.filter((r) => r.status === 200).length, 200);
    const limited = answers.find((r) => r.status === 429);
    assert.ok(limited);
    PlainErrorBodySchema.parse(await limited.json());
    // 600 a minute: one token every 0.1 s, at least 1 s in Retry-After.
    assert.equal(limited.headers.get('retry-after'), '1');
    const otherKey = await call(sandbox, defaultServicePaths.forms, {
      apiKey: fixtureKeys.otherOrg,
    });
    assert.equal(otherKey.status, 200, "another key's budget is untouched");
    await cancel(answers);
    sandbox.control.advanceClock(0.1);
    const refilled = [
      await call(sandbox, defaultServicePaths.forms),
      await call(sandbox, defaultServicePaths.forms),
    ];
    assert.deepEqual(
      refilled.map((r) => r.status),
      [200, 429],
      '0.1 s gives one read back',
    );
    await cancel(refilled);
  });

  test('no more than the burst passes across what was a window edge: 120 mints at 59 s and at 60 s let 122 through, not 239 (the audit)', async (t) => {
    const sandbox = await sandboxFor(t);
    stillDate(t);
    await cancel(await mints(sandbox, 1));
    sandbox.control.advanceClock(59);
    const before = await mints(sandbox, 119);
    sandbox.control.advanceClock(1);
    const after = await mints(sandbox, 120);
    const passed = [...before, ...after].filter((r) => r.status === 200).length;
    // Within one second a key sends at most its burst plus what a second refills (2).
    assert.equal(passed, 119 + 3);
    await cancel([...before, ...after]);
  });

  test('a spent bucket refills at the rate, on the sandbox clock, and never past the burst', async (t) => {
    const sandbox = await sandboxFor(t);
    stillDate(t);
    await cancel(await mints(sandbox, 120));
    const passedAfter = async (seconds: number, tries: number) => {
      sandbox.control.advanceClock(seconds);
      const answers = await mints(sandbox, tries);
      await cancel(answers);
      return answers.filter((r) => r.status === 200).length;
    };
    assert.equal(await passedAfter(0.5, 2), 1, 'one token every 0.5 s');
    assert.equal(await passedAfter(10, 25), 20, '20 tokens in 10 s');
    assert.equal(await passedAfter(0, 1), 0);
    assert.equal(await passedAfter(300, 130), 120, 'five idle minutes refill the burst, not 600');
  });

  test('Retry-After is whole seconds until one token, at least 1, and a token is there when it says', async (t) => {
    // 6 a minute, bursts to 2: one token every 10 s.
    const sandbox = await sandboxFor(t, { limits: { mints: { perMinute: 6, burst: 2 } } });
    stillDate(t);
    await cancel(await mints(sandbox, 2));
    const retryAfterNow = async () => {
      const [answer] = await mints(sandbox, 1);
      assert.ok(answer);
      await answer.body?.cancel();
      return answer.status === 429 ? answer.headers.get('retry-after') : String(answer.status);
    };
    assert.equal(await retryAfterNow(), '10');
    sandbox.control.advanceClock(0.6);
    assert.equal(await retryAfterNow(), '10', '9.4 s rounds up');
    sandbox.control.advanceClock(8.4);
    assert.equal(await retryAfterNow(), '1', '1 s left');
    sandbox.control.advanceClock(0.7);
    assert.equal(await retryAfterNow(), '1', '0.3 s left is still at least 1');
    sandbox.control.advanceClock(0.3);
    assert.equal(await retryAfterNow(), '200', 'the token came when Retry-After said');
    assert.equal(await retryAfterNow(), '10', 'and the refusals did not spend one');
  });

  test('X-RateLimit-Limit is the burst and X-RateLimit-Remaining the whole tokens left after the request', async (t) => {
    const sandbox = await sandboxFor(t, { limits: { mints: { perMinute: 6, burst: 3 } } });
    stillDate(t);
    const headersOf = async () => {
      const [answer] = await mints(sandbox, 1);
      assert.ok(answer);
      await answer.body?.cancel();
      const limit = answer.headers.get('x-ratelimit-limit');
      return `${answer.status} ${limit} ${answer.headers.get('x-ratelimit-remaining')}`;
    };
    assert.equal(await headersOf(), '200 3 2');
    assert.equal(await headersOf(), '200 3 1');
    sandbox.control.advanceClock(5); // half a token: 1.5 left
    assert.equal(await headersOf(), '200 3 0', '0.5 of a token is not a request');
    assert.equal(await headersOf(), '429 3 0');
    sandbox.control.advanceClock(5); // 1 token
    assert.equal(await headersOf(), '200 3 0');
  });

  test('a rate whose token is no whole millisecond (7 a minute, a token every 8571.43 ms) lets the whole burst through and refills on time', async (t) => {
    const sandbox = await sandboxFor(t, { limits: { mints: { perMinute: 7, burst: 7 } } });
    // Today's epoch, whose last bit is 0.24 µs: advanceClock(60 / 7) is not exact on it.
    stillDate(t, Date.now());
    const headersOf = async () => {
      const { status, headers } = await oneMint(sandbox);
      return `${status} ${headers.get('x-ratelimit-remaining')} ${headers.get('retry-after') ?? '-'}`;
    };
    const burst = [];
    for (let i = 0; i < 7; i++) burst.push(await headersOf());
    assert.deepEqual(burst, [
      '200 6 -',
      '200 5 -',
      '200 4 -',
      '200 3 -',
      '200 2 -',
      '200 1 -',
      '200 0 -',
    ]);
    assert.equal(await headersOf(), '429 0 9', '8.57 s to the next token');
    sandbox.control.advanceClock(60 / 7 - 8);
    assert.equal(await headersOf(), '429 0 8', '8 s to the next token, not 8.0000001');
    sandbox.control.advanceClock(8);
    assert.equal(await headersOf(), '200 0 -', 'the token came when it was due');
    sandbox.control.advanceClock(60);
    assert.equal(await headersOf(), '200 6 -', 'a minute refills the burst');
  });

  test('exhaustRateLimit keeps every key empty for a minute of sandbox time (as if other users of the key spent each token as it came), in process and over HTTP', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    stillDate(t);
    await sandbox.control.exhaustRateLimit('mints');
    const spent = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(spent.status, 429);
    assert.equal(spent.headers.get('retry-after'), '60');
    await spent.body?.cancel();
    const otherKey = await call(sandbox, sessionPath(otherOrgForm), {
      method: 'POST',
      apiKey: fixtureKeys.otherOrg,
      body: '{}',
    });
    assert.equal(otherKey.status, 429, "every key's bucket, not only the primary's");
    await otherKey.body?.cancel();
    sandbox.control.advanceClock(45);
    const later = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(later.headers.get('retry-after'), '15');
    await later.body?.cancel();
    const advanced = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/advance-clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ seconds: 15 }),
    });
    assert.equal(advanced.status, 200);
    const reopened = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(reopened.status, 200, 'a token came without waiting');
    assert.equal(reopened.headers.get('x-ratelimit-remaining'), '0');
    await reopened.body?.cancel();
    sandbox.control.advanceClock(60);
    const refilled = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(
      refilled.headers.get('x-ratelimit-remaining'),
      '119',
      'a minute refills the burst',
    );
    await refilled.body?.cancel();
  });

  test('a Date set back (a test faking an earlier time) neither empties nor refills a bucket', async (t) => {
    const sandbox = await sandboxFor(t);
    const clock = stillDate(t);
    await cancel(await mints(sandbox, 100));
    clock.setSystemTime(Date.now() - 3 * 86_400_000);
    const [back] = await mints(sandbox, 1);
    assert.equal(back?.status, 200);
    assert.equal(back?.headers.get('x-ratelimit-remaining'), '19', 'as it was, less one');
    await back?.body?.cancel();
    sandbox.control.advanceClock(0.5);
    const [later] = await mints(sandbox, 1);
    assert.equal(later?.headers.get('x-ratelimit-remaining'), '19', 'refilling from there');
    await later?.body?.cancel();
  });

  test('a Date set back on a spent bucket: refused, then refilled from the earlier time on', async (t) => {
    const sandbox = await sandboxFor(t);
    const clock = stillDate(t, Date.now());
    await cancel(await mints(sandbox, 120));
    clock.setSystemTime(Date.now() - 3 * 86_400_000);
    const refused = await oneMint(sandbox);
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get('retry-after'), '1');
    sandbox.control.advanceClock(0.5);
    const refilled = await oneMint(sandbox);
    assert.equal(refilled.status, 200, 'half a second after the refusal, on the earlier time');
    assert.equal(refilled.headers.get('x-ratelimit-remaining'), '0');
  });

  test('the limits option needs a finite perMinute > 0 and a whole burst >= 1 (Infinity told X-RateLimit-Remaining: NaN)', async () => {
    const limits = [
      { perMinute: Number.POSITIVE_INFINITY, burst: 5 },
      { perMinute: 0, burst: 5 },
      { perMinute: Number.NaN, burst: 5 },
      { perMinute: 60, burst: 0 },
      { perMinute: 60, burst: 1.5 },
    ];
    for (const mints of limits) {
      await assert.rejects(
        // One that starts is closed again, so that the failed test does not hold the process open.
        startSandbox({ limits: { mints } }).then(async (started) => {
          await started.close();
          return started;
        }),
        /^TypeError: startSandbox: option limits\.mints needs perMinute a finite number > 0 and burst a whole number >= 1/,
        `perMinute ${mints.perMinute}, burst ${mints.burst}`,
      );
    }
  });

  test('the limits option raises the limits (for load tests)', async (t) => {
    const sandbox = await sandboxFor(t, {
      limits: {
        mints: { perMinute: 60_000, burst: 5000 },
        reads: { perMinute: 60_000, burst: 5000 },
      },
    });
    const answers = await Promise.all(
      Array.from({ length: 300 }, () => requestSession(sandbox, microsoftForm, adele)),
    );
    assert.ok(answers.every((r) => r.status === 200));
    assert.equal(answers[0]?.headers.get('x-ratelimit-limit'), '5000');
    await Promise.all(answers.map((r) => r.body?.cancel()));
  });

  test('every authenticated answer carries X-RateLimit-Limit and X-RateLimit-Remaining: unknown routes and injected faults included', async (t) => {
    const sandbox = await sandboxFor(t);
    const answers: [string, Response, string][] = [];
    answers.push(['unknown route', await call(sandbox, '/api/v1/no-such-thing'), '200']);
    sandbox.control.fail({ kind: 'error', code: 'internal_error' });
    answers.push(['error fault on a read', await call(sandbox, defaultServicePaths.me), '200']);
    sandbox.control.fail({ kind: 'notJson', status: 502 });
    answers.push(['notJson fault', await call(sandbox, defaultServicePaths.me), '200']);
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    answers.push([
      'error fault on a mint',
      await requestSession(sandbox, microsoftForm, adele),
      '120',
    ]);
    const statuses = answers.map(([, response]) => response.status);
    assert.deepEqual(statuses, [404, 500, 502, 503]);
    for (const [name, response, limit] of answers) {
      assert.equal(response.headers.get('x-ratelimit-limit'), limit, name);
      assert.match(response.headers.get('x-ratelimit-remaining') ?? '', /^\d+$/, name);
      await response.body?.cancel();
    }
  });
});
