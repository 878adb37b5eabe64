import assert from 'node:assert/strict';
import { describe, type TestContext, test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import { CONTROL_PATH, fixtureIds, type Sandbox, type StoreStats } from '../src/index.js';
import { mintSession, postedState, redeem, sandboxFor } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const TTL = 1800;

async function control(sandbox: Sandbox, action: string, body: unknown = {}) {
  const answer = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(answer.status, 200, action);
  return answer.json();
}

const storeStats = async (sandbox: Sandbox): Promise<StoreStats> =>
  ((await control(sandbox, 'stats')) as { store: StoreStats }).store;

const mint = async (sandbox: Sandbox) =>
  (await mintSession(sandbox, microsoftForm, adele)).embedUrl;

/**
 * A sandbox whose clock moves only when the test advances it: Date stands still in this process
 * (the sandbox's clock is Date plus its offset), so a boundary 1 s away holds however slow the
 * machine is.
 */
async function stillSandbox(t: TestContext) {
  const clock = FakeTimers.install({ toFake: ['Date'] });
  t.after(() => clock.uninstall());
  return sandboxFor(t, { controlApi: true });
}

const submit = (sessionUrl: string) => fetch(`${sessionUrl}/submit`, { method: 'POST' });

describe('session store: pruned on each mint, on the sandbox clock', () => {
  test('past every TTL, one more mint leaves only what is alive: its own handle and session', async (t) => {
    const sandbox = await stillSandbox(t);
    const embedUrls = [];
    for (let i = 0; i < 20; i++) embedUrls.push(await mint(sandbox));
    for (const embedUrl of embedUrls.slice(0, 10)) await redeem(embedUrl);
    assert.deepEqual(await storeStats(sandbox), { handles: 10, sessions: 20, lapsed: 0 });
    await control(sandbox, 'advance-clock', { seconds: 2 * TTL });
    await mint(sandbox);
    // The ten never redeemed are gone; the ten signed in are kept only to be told as lapsed.
    assert.deepEqual(await storeStats(sandbox), { handles: 1, sessions: 1, lapsed: 10 });
  });

  test('a handle is dropped once redeemed; an unredeemed one, and its session, once too old', async (t) => {
    const sandbox = await stillSandbox(t);
    const redeemed = await mint(sandbox);
    const unredeemed = await mint(sandbox);
    await redeem(redeemed);
    assert.deepEqual(sandbox.control.storeStats(), { handles: 1, sessions: 2, lapsed: 0 });
    await control(sandbox, 'advance-clock', { seconds: 119 });
    await mint(sandbox);
    assert.deepEqual(
      sandbox.control.storeStats(),
      { handles: 2, sessions: 3, lapsed: 0 },
      'at 119 s',
    );
    await control(sandbox, 'advance-clock', { seconds: 121 });
    await mint(sandbox);
    assert.deepEqual(
      sandbox.control.storeStats(),
      { handles: 1, sessions: 2, lapsed: 0 },
      'the too-old handles and their never redeemed sessions are gone; the redeemed one stays',
    );
    assert.equal((await fetch(unredeemed, { redirect: 'manual' })).status, 401);
  });

  test('a handle is redeemable for 120 s: up to the last millisecond before, not at 120 s, as a session lapses at its 30 minutes', async (t) => {
    const sandbox = await stillSandbox(t);
    const [lastMoment, atTtl] = [await mint(sandbox), await mint(sandbox)];
    await control(sandbox, 'advance-clock', { seconds: 119.999 });
    await redeem(lastMoment);
    await control(sandbox, 'advance-clock', { seconds: 0.001 });
    assert.equal((await fetch(atTtl, { redirect: 'manual' })).status, 401);
  });

  test('a lapsed session is told as lapsed however long after, posting expired once', async (t) => {
    const sandbox = await stillSandbox(t);
    const reloaded = await redeem(await mint(sandbox));
    const submitted = await redeem(await mint(sandbox));
    await control(sandbox, 'advance-clock', { seconds: TTL });
    assert.equal(postedState(await (await fetch(reloaded)).text()), 'expired');
    await mint(sandbox);
    assert.equal(postedState(await (await fetch(reloaded)).text()), undefined, 'once per lapse');
    await control(sandbox, 'advance-clock', { seconds: TTL - 1 });
    await mint(sandbox);
    assert.match(await (await fetch(reloaded)).text(), /Your session has ended/);
    // A day later, past the horizon: the session is kept only as lapsed, and still told so.
    await control(sandbox, 'advance-clock', { seconds: 86_400 });
    await mint(sandbox);
    assert.deepEqual(sandbox.control.storeStats(), { handles: 1, sessions: 1, lapsed: 2 });
    const late = await submit(submitted);
    assert.equal(late.status, 401);
    assert.equal(postedState(await late.text()), 'expired', 'first noticed a day later');
    const again = await fetch(reloaded);
    assert.equal(again.status, 401);
    assert.match(await again.text(), /Your session has ended/);
  });
});
