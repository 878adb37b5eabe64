import assert from 'node:assert/strict';
import { EventEmitter, getEventListeners } from 'node:events';
import { request } from 'node:http';
import { connect } from 'node:net';
import { describe, type TestContext, test } from 'node:test';
import { setTimeout as realDelay, setImmediate as turn } from 'node:timers/promises';
import FakeTimers from '@sinonjs/fake-timers';
import type * as Express from 'express';
import { held } from '../src/held-request.js';
import { fixtureIds, type Sandbox } from '../src/index.js';
import { parseOptions } from '../src/options.js';
import { SandboxState } from '../src/sandbox-state.js';
import { mintSession, requestSession, sandboxFor, sessionPath } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const MINT = 'POST /api/v1/forms/{formId}/session';
/** A long hold: a test ends it (reset, the client going) or moves the fake clock past it. */
const HOLD_MS = 60_000;
/** The mint bucket: no refill to speak of while a test runs, so every token taken shows. */
const limits = { mints: { perMinute: 1, burst: 10 } };

/**
 * The sandbox's timers (its `sleep`) on a fake clock from here on: a held request wakes only when
 * the test moves the clock. Node's own timers (sockets, `node:timers/promises`) stay real.
 */
function fakeTimers(t: TestContext) {
  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout'],
    shouldClearNativeTimers: true,
  });
  t.after(() => clock.uninstall());
  return clock;
}

/** Fails the test if `promise` has not settled in 5 s (a failure deadline, never waited out). */
async function within<T>(promise: Promise<T>, what: string): Promise<T> {
  const giveUp = new AbortController();
  try {
    return await Promise.race([
      promise,
      realDelay(5000, undefined, { signal: giveUp.signal }).then(() => {
        throw new Error(`${what}: still pending after 5 s`);
      }),
    ]);
  } finally {
    giveUp.abort();
  }
}

/**
 * Waits (on I/O turns, no clock) until `ready` holds: the sandbox has the request in hand. Given
 * up, it stops turning, or its turns would keep the process from ever exiting.
 */
async function until(ready: () => boolean, what: string) {
  let waiting = true;
  try {
    await within(
      (async () => {
        while (waiting && !ready()) await turn();
      })(),
      what,
    );
  } finally {
    waiting = false;
  }
}

/**
 * A mint the sandbox holds (latency or a delay fault): resolves, once the sandbox holds it, to
 * its answer still to come (in an array, or it would be awaited here).
 */
async function heldMint(sandbox: Sandbox): Promise<[Promise<Response>]> {
  const before = sandbox.control.stats()[MINT] ?? 0;
  const response = requestSession(sandbox, microsoftForm, adele);
  response.catch(() => {}); // read by the test, or still held when the sandbox closes
  await until(() => (sandbox.control.stats()[MINT] ?? 0) > before, 'the mint never arrived');
  return [response];
}

/** A GET of the embedUrl the sandbox holds with a `redeem` delay fault. */
async function heldRedeem(sandbox: Sandbox, embedUrl: string): Promise<[Promise<Response>]> {
  sandbox.control.fail({ kind: 'delay', delayMs: HOLD_MS, scope: 'redeem' });
  const response = fetch(embedUrl, { redirect: 'manual' });
  response.catch(() => {});
  await until(() => sandbox.control.pendingFaults().redeem === 0, 'the redemption never arrived');
  return [response];
}

/**
 * A request by node:http, which sets no timer of its own: the fake clock then counts the
 * sandbox's alone (fetch's would count too).
 */
function send(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
) {
  const outgoing = request(url, {
    method: init.method ?? 'GET',
    headers: init.headers ?? {},
    agent: false,
  });
  const answered = new Promise<number>((resolve, reject) => {
    outgoing.on('response', (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    outgoing.on('error', reject);
  });
  answered.catch(() => {}); // the test ends it
  outgoing.end(init.body);
  return { answered, abort: () => outgoing.destroy() };
}

/** The mint tokens left: a fresh mint's X-RateLimit-Remaining, plus the one it took. */
async function mintTokensLeft(sandbox: Sandbox) {
  const response = await requestSession(sandbox, microsoftForm, adele);
  await response.body?.cancel();
  return Number(response.headers.get('x-ratelimit-remaining')) + 1;
}

describe('a request the sandbox holds (latency, a delay fault)', () => {
  test('reset() closes its connection at once, as a reset fault does: a mint held by latency, one held by a delay fault, a held redemption', async (t) => {
    const sandbox = await sandboxFor(t, { latencyMs: HOLD_MS });
    const [byLatency] = await heldMint(sandbox);
    sandbox.control.reset(); // latency 60 s again: the start's
    sandbox.control.setLatency(0);
    const embedUrl = (await mintSession(sandbox, microsoftForm, adele)).embedUrl;
    sandbox.control.fail({ kind: 'delay', delayMs: HOLD_MS, scope: 'session' });
    const [byDelay] = await heldMint(sandbox);
    const [redemption] = await heldRedeem(sandbox, embedUrl);
    sandbox.control.reset();
    await within(assert.rejects(byDelay, TypeError), 'the mint held by a delay fault');
    await within(assert.rejects(redemption, TypeError), 'the held redemption');
    await within(assert.rejects(byLatency, TypeError), 'the mint held by latency');
  });

  test('one held when reset() comes takes nothing from the state after it: no token, no fault, no session', async (t) => {
    const clock = fakeTimers(t);
    const sandbox = await sandboxFor(t, { limits });
    sandbox.control.setLatency(HOLD_MS);
    const held = [...(await heldMint(sandbox)), ...(await heldMint(sandbox))];
    sandbox.control.reset();
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    await clock.tickAsync(HOLD_MS);
    await within(Promise.allSettled(held), 'the held mints');
    assert.equal(
      sandbox.control.pendingFaults().session,
      1,
      'the next test’s fault is still armed',
    );
    assert.equal(sandbox.control.storeStats().handles, 0, 'nothing was minted');
    assert.equal(await mintTokensLeft(sandbox), 10, 'no mint token was taken');
    assert.equal(
      sandbox.control.droppedRequests(),
      0,
      'closed by reset(), not dropped by a client',
    );
  });

  test('one whose client goes while it is held is dropped: no token, no fault, no session, the handle not redeemed', async (t) => {
    const sandbox = await sandboxFor(t, { limits });
    const embedUrl = (await mintSession(sandbox, microsoftForm, adele)).embedUrl;
    const clock = fakeTimers(t);
    // The sandbox's holds among the clock's timers: fetch's own come and go (its keep-alive and
    // its ticking clock) on the fake clock too. `timers` is the clock's, not in its types.
    const holds = () =>
      [...(clock as unknown as { timers: Map<number, { delay: number }> }).timers.values()].filter(
        (timer) => timer.delay === HOLD_MS,
      ).length;
    const mint = () =>
      send(`${sandbox.baseUrl}${sessionPath(microsoftForm)}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ user: adele }),
      });
    const minted = () => sandbox.control.stats()[MINT] ?? 0;
    sandbox.control.setLatency(HOLD_MS);
    const held = [mint()];
    await until(() => minted() === 2, 'the mint never arrived');
    sandbox.control.setLatency(0);
    sandbox.control.fail({ kind: 'delay', delayMs: HOLD_MS, scope: 'session' });
    held.push(mint());
    await until(() => minted() === 3, 'the mint never arrived');
    sandbox.control.fail({ kind: 'delay', delayMs: HOLD_MS, scope: 'redeem' });
    held.push(send(embedUrl));
    await until(() => sandbox.control.pendingFaults().redeem === 0, 'the redemption never arrived');
    assert.equal(holds(), 3, 'three requests held');
    for (const request of held) request.abort();
    // The sandbox drops each as its connection closes (its timer cleared); on the old code they
    // stay held, and the clock then wakes them. Cleared, not left to fire: a dropped hold's timer
    // would stay until its time, one more for each request dropped (a delay fault of 1e10 ms, an
    // upstream that never answers: 24.8 days).
    await until(() => holds() === 0, "a dropped request's timer is still set");
    assert.equal(sandbox.control.droppedRequests(), 3, 'each counted as dropped');
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    await clock.tickAsync(HOLD_MS);
    await turn();
    assert.equal(sandbox.control.pendingFaults().session, 1, 'the armed fault is still armed');
    assert.deepEqual(
      sandbox.control.storeStats(),
      { handles: 1, sessions: 1, lapsed: 0 },
      'only the first mint’s handle and session',
    );
    const redeemed = await fetch(embedUrl, { redirect: 'manual' });
    assert.equal(redeemed.status, 303, 'the handle is still unspent');
    assert.equal(
      await mintTokensLeft(sandbox),
      8,
      'only the first mint’s token and the delayed one’s',
    );
  });

  test('requests pipelined on one connection are each dropped when their client goes: the one queued behind the first too', async (t) => {
    const sandbox = await sandboxFor(t, { limits });
    const clock = fakeTimers(t);
    sandbox.control.setLatency(HOLD_MS);
    const body = JSON.stringify({ user: adele });
    const mint = [
      `POST ${sessionPath(microsoftForm)} HTTP/1.1`,
      'Host: 127.0.0.1',
      `Authorization: Bearer ${sandbox.apiKey}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n');
    const { hostname, port } = new URL(sandbox.baseUrl);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => {});
    socket.write(mint + mint);
    const minted = () => sandbox.control.stats()[MINT] ?? 0;
    await until(() => minted() === 2, 'the two mints never arrived');
    socket.destroy();
    // The second's answer waits behind the first's: its response has no connection of its own
    // to close, so only the connection's close tells that its client went.
    await until(() => sandbox.control.droppedRequests() === 2, 'both dropped');
    sandbox.control.setLatency(0);
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    await clock.tickAsync(HOLD_MS);
    await turn();
    assert.equal(sandbox.control.pendingFaults().session, 1, 'the armed fault is still armed');
    assert.equal(sandbox.control.storeStats().handles, 0, 'nothing was minted');
    assert.equal(await mintTokensLeft(sandbox), 10, 'no mint token was taken');
  });

  test('one whose connection is already closed when it comes to be held is dropped and counted, as one whose client goes while held', async () => {
    const state = new SandboxState(parseOptions(), {
      formsOrigin: 'http://127.0.0.1:1',
      coreFormsOrigin: 'http://127.0.0.1:2',
    });
    const req = { socket: Object.assign(new EventEmitter(), { destroyed: true }) };
    const res = new EventEmitter();
    assert.equal(
      await held(state, req as Express.Request, res as Express.Response, HOLD_MS),
      false,
    );
    assert.equal(state.droppedCount(), 1, 'never answered: its client went');
  });

  test('a hold that ends leaves nothing on the reset signal, which lives until reset(): many held at once, the timer out or the client gone', async (t) => {
    const clock = fakeTimers(t);
    const state = new SandboxState(parseOptions(), {
      formsOrigin: 'http://127.0.0.1:1',
      coreFormsOrigin: 'http://127.0.0.1:2',
    });
    const reset = state.heldSignal;
    const warnings: Error[] = [];
    const warned = (warning: Error) => warnings.push(warning);
    process.on('warning', warned);
    try {
      const holds = Array.from({ length: 100 }, (_, i) => {
        const res = new EventEmitter();
        const req = { socket: Object.assign(new EventEmitter(), { destroyed: false }) };
        const hold = held(state, req as Express.Request, res as Express.Response, HOLD_MS);
        if (i % 2 === 0) res.emit('close'); // the client goes
        return hold;
      });
      await clock.tickAsync(HOLD_MS); // the others' timers out
      assert.deepEqual(new Set(await Promise.all(holds)), new Set([true, false]));
      assert.equal(state.droppedCount(), 50, 'those whose client went, not those answered');
      await turn(); // a warning is emitted on the next tick
    } finally {
      process.off('warning', warned);
    }
    assert.deepEqual(warnings.map(String), [], 'no warning for 100 held at once');
    assert.equal(getEventListeners(reset, 'abort').length, 0, 'no abort listener left');
    // Node 20's AbortSignal.any keeps a weak reference to each signal it makes in a set of each
    // of its sources (its internal kDependantSignals), emptied only when that source aborts.
    const dependants = Object.getOwnPropertySymbols(reset).find(
      (symbol) => symbol.description === 'kDependantSignals',
    );
    const kept = dependants && (reset as unknown as Record<symbol, Set<unknown>>)[dependants];
    assert.equal(kept?.size ?? 0, 0, 'no signal joined to the reset signal left behind');
  });
});
