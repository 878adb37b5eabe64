import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultServicePaths, PlainErrorBodySchema } from '@form-embed/protocol';
import FakeTimers from '@sinonjs/fake-timers';
import { CONTROL_PATH, fixtureIds, fixtureKeys } from '../src/index.js';
import { call, requestSession, sandboxFor, sessionError } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

describe('rate limits per key', () => {
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

  test('mints: a key gets a burst of 120, then rate_limited (429, retryable) with Retry-After', async (t) => {
    const sandbox = await sandboxFor(t);
    // A still Date: the window's whole 60 s are left however long the burst takes here.
    const clock = FakeTimers.install({ toFake: ['Date'] });
    t.after(() => clock.uninstall());
    const answers = await Promise.all(
      Array.from({ length: 121 }, () => requestSession(sandbox, microsoftForm, adele)),
    );
    const statuses = answers.map((r) => r.status);
    assert.equal(statuses.filter((s) => s === 200).length, 120);
    const limited = answers.find((r) => r.status === 429);
    assert.ok(limited);
    const error = await sessionError(limited);
    assert.equal(error.code, 'rate_limited');
    assert.equal(error.retryable, true);
    assert.equal(limited.headers.get('retry-after'), '60');
    assert.equal(limited.headers.get('x-ratelimit-remaining'), '0');
    await Promise.all(answers.filter((r) => r !== limited).map((r) => r.body?.cancel()));
  });

  test('reads: a key gets a burst of 200, then 429 {error} with Retry-After; limits are per key', async (t) => {
    const sandbox = await sandboxFor(t);
    // As above: 200 reads in a burst refill at 600 a minute, a window of 20 s.
    const clock = FakeTimers.install({ toFake: ['Date'] });
    t.after(() => clock.uninstall());
    const answers = await Promise.all(
      Array.from({ length: 201 }, () => call(sandbox, defaultServicePaths.forms)),
    );
    assert.equal(answers.filter((r) => r.status === 200).length, 200);
    const limited = answers.find((r) => r.status === 429);
    assert.ok(limited);
    PlainErrorBodySchema.parse(await limited.json());
    assert.equal(limited.headers.get('retry-after'), '20');
    const otherKey = await call(sandbox, defaultServicePaths.forms, {
      apiKey: fixtureKeys.otherOrg,
    });
    assert.equal(otherKey.status, 200, "another key's budget is untouched");
    await Promise.all(answers.filter((r) => r !== limited).map((r) => r.body?.cancel()));
  });

  test('windows run on the sandbox clock: advanceClock shortens Retry-After and opens a spent window, in process and over HTTP', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const clock = FakeTimers.install({ toFake: ['Date'] });
    t.after(() => clock.uninstall());
    await sandbox.control.exhaustRateLimit('mints');
    const spent = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(spent.status, 429);
    assert.equal(spent.headers.get('retry-after'), '60');
    await spent.body?.cancel();
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
    assert.equal(reopened.status, 200, 'a new window opened without waiting');
    assert.equal(reopened.headers.get('x-ratelimit-remaining'), '119');
    await reopened.body?.cancel();
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
