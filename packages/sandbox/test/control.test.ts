import assert from 'node:assert/strict';
import { once } from 'node:events';
import { type IncomingMessage, request } from 'node:http';
import { text } from 'node:stream/consumers';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import {
  isOnEmbedOrigin,
  OrganisationSchema,
  PlainErrorBodySchema,
  defaultServicePaths as paths,
} from '@form-embed/protocol';
import FakeTimers from '@sinonjs/fake-timers';
import { createControl } from '../src/control.js';
import { CONTROL_PATH, fixtureIds, type Sandbox } from '../src/index.js';
import { parseOptions } from '../src/options.js';
import { SandboxState } from '../src/sandbox-state.js';
import { openListenerCount } from '../src/start-sandbox.js';
import { call, mintSession, redeem, requestSession, sandboxFor, sessionError } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

const postControl = (baseUrl: string, action: string, body: unknown = {}) =>
  fetch(`${baseUrl}${CONTROL_PATH}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('sandbox.control: faults, latency, stats, forms domain, Microsoft connection', () => {
  test('the HTTP control API is off unless enabled: its path is an unknown route (401, then 404 {error})', async (t) => {
    const sandbox = await sandboxFor(t);
    const anonymous = await postControl(sandbox.baseUrl, 'reset');
    assert.equal(anonymous.status, 401);
    const withKey = await call(sandbox, `${CONTROL_PATH}/reset`, { method: 'POST', body: '{}' });
    assert.equal(withKey.status, 404);
    PlainErrorBodySchema.parse(await withKey.json());
  });

  test('the HTTP control API, when enabled, injects a fault, counts requests and resets', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const failed = await postControl(sandbox.baseUrl, 'fail', {
      kind: 'error',
      code: 'unavailable',
      retryAfter: 7,
      scope: 'session',
    });
    assert.equal(failed.status, 200);
    const me = await call(sandbox, paths.me);
    assert.equal(me.status, 200, 'a session-scoped fault leaves reads alone');
    const mint = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(mint.status, 503);
    assert.equal(mint.headers.get('retry-after'), '7');
    assert.deepEqual(await sessionError(mint), {
      code: 'unavailable',
      message: 'Injected fault: unavailable.',
      retryable: true,
    });
    const stats = (await (await postControl(sandbox.baseUrl, 'stats')).json()) as {
      requests: Record<string, number>;
    };
    assert.equal(stats.requests[`GET ${paths.me}`], 1);
    assert.equal(stats.requests[`POST ${paths.formSession}`], 1);
    assert.equal((await postControl(sandbox.baseUrl, 'reset')).status, 200);
    assert.deepEqual(sandbox.control.stats(), {});
    const bad = await postControl(sandbox.baseUrl, 'fail', { kind: 'explode' });
    assert.equal(bad.status, 400);
    PlainErrorBodySchema.parse(await bad.json());
    const unknown = await postControl(sandbox.baseUrl, 'nope');
    assert.equal(unknown.status, 404);
  });

  test('pendingFaults (and stats over HTTP) counts the requests armed faults will still fail, down as they are used', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 0, redeem: 0 });
    sandbox.control.fail({ kind: 'error', code: 'forbidden', scope: 'session', count: 2 });
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    sandbox.control.fail({ kind: 'reset', scope: 'redeem' });
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 3, redeem: 1 });
    assert.equal((await requestSession(sandbox, microsoftForm, adele)).status, 403);
    const stats = (await (await postControl(sandbox.baseUrl, 'stats')).json()) as {
      faults: unknown;
    };
    assert.deepEqual(stats.faults, { api: 0, session: 2, redeem: 1 });
    sandbox.control.reset();
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 0, redeem: 0 });
  });

  test('latencyMs (and stats over HTTP) reads the latency setLatency set, the start’s again after reset', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true, latencyMs: 5 });
    assert.equal(sandbox.control.latencyMs(), 5);
    sandbox.control.setLatency(1500);
    assert.equal(sandbox.control.latencyMs(), 1500);
    // A page that reloads has forgotten what it set: it reads the sandbox's own.
    const stats = (await (await postControl(sandbox.baseUrl, 'stats')).json()) as {
      latencyMs: unknown;
    };
    assert.equal(stats.latencyMs, 1500);
    sandbox.control.reset();
    assert.equal(sandbox.control.latencyMs(), 5);
  });

  test('an action name that is not valid percent-encoding answers 404 as an unknown action', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    for (const method of ['POST', 'GET']) {
      const answer = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/%E0%A4%A`, { method });
      assert.equal(answer.status, 404, method);
      const { error } = PlainErrorBodySchema.parse(await answer.json());
      assert.equal(error, 'No control action %E0%A4%A.', method);
    }
  });

  test('an action asked for with GET answers 405, Allow: POST, not the API’s 401, and is not counted as an API request', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const answer = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/reset`);
    assert.equal(answer.status, 405);
    assert.equal(answer.headers.get('allow'), 'POST');
    assert.deepEqual(PlainErrorBodySchema.parse(await answer.json()), {
      error: 'reset takes POST.',
    });
    assert.deepEqual(sandbox.control.stats(), {});
    const statsPut = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/stats`, { method: 'PUT' });
    assert.equal(statsPut.status, 405);
    assert.equal(statsPut.headers.get('allow'), 'GET, POST', 'stats answers GET too');
  });

  test('a fault fails exactly the next N requests, then answers are normal again', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'error', code: 'internal_error', count: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) {
      const answer = await call(sandbox, paths.me);
      statuses.push(answer.status);
      // Off the session endpoints an error is the contract's {error: string}, faults included.
      if (answer.status === 500) PlainErrorBodySchema.parse(await answer.json());
      else await answer.body?.cancel();
    }
    assert.deepEqual(statuses, [500, 500, 200]);
  });

  test("an error fault's status and retryable override the code's row", async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({
      kind: 'error',
      code: 'internal_error',
      status: 502,
      retryable: false,
      scope: 'session',
    });
    const answer = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(answer.status, 502);
    assert.deepEqual(
      { ...(await sessionError(answer)), message: '' },
      { code: 'internal_error', message: '', retryable: false },
    );
  });

  test('an injected 429 or 503 says how long to wait (1 s) unless its fault gives a wait, or null for none', async (t) => {
    const sandbox = await sandboxFor(t);
    const retryAfterOf = async (spec: { code: string; retryAfter?: number | string | null }) => {
      sandbox.control.fail({ kind: 'error', scope: 'session', ...spec });
      return (await requestSession(sandbox, microsoftForm, adele)).headers.get('retry-after');
    };
    assert.equal(await retryAfterOf({ code: 'rate_limited' }), '1');
    assert.equal(await retryAfterOf({ code: 'microsoft_unavailable' }), '1');
    assert.equal(await retryAfterOf({ code: 'unavailable', retryAfter: 7 }), '7');
    assert.equal(await retryAfterOf({ code: 'rate_limited', retryAfter: null }), null);
    assert.equal(await retryAfterOf({ code: 'forbidden' }), null, 'a 403 says nothing of waiting');
    // Any value Node sends, characters past ASCII (obs-text) included: a service's unreadable
    // one. Node writes it as it writes the body (UTF-8 here), so only its presence is checked.
    assert.match(
      (await retryAfterOf({ code: 'unavailable', retryAfter: 'bientôt' })) ?? '',
      /^bient.+t$/,
    );
  });

  test('a reset fault destroys the connection without an answer', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'reset', scope: 'session' });
    await assert.rejects(requestSession(sandbox, microsoftForm, adele), TypeError);
    assert.equal((await requestSession(sandbox, microsoftForm, adele)).status, 200);
  });

  test('a notJson fault answers a body that is not JSON', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'notJson' });
    const ok = await call(sandbox, paths.me);
    assert.equal(ok.status, 200, 'a 200 by default, as a proxy that answers its own page does');
    await assert.rejects(ok.json(), SyntaxError);
    sandbox.control.fail({ kind: 'notJson', status: 502 });
    const response = await call(sandbox, paths.me);
    assert.equal(response.status, 502);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    await assert.rejects(response.json(), SyntaxError);
  });

  test('a foreignEmbedUrl fault answers one successful mint whose embedUrl is on a foreign origin; armed with no scope, the reads before it leave it for the mint', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'foreignEmbedUrl' });
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 1, redeem: 0 });
    assert.equal((await call(sandbox, paths.me)).status, 200);
    const foreign = await mintSession(sandbox, microsoftForm, adele);
    assert.equal(new URL(foreign.embedUrl).origin, 'https://foreign.example');
    const next = await mintSession(sandbox, microsoftForm, adele);
    assert.ok(isOnEmbedOrigin(next.embedUrl, sandbox.formsOrigin));
  });

  /** Which of two requests answers first: `held` was sent first, `next` once `held` arrived. */
  async function firstAnswered(sandbox: Sandbox, path: string) {
    const held = call(sandbox, path).then(() => 'held' as const);
    held.catch(() => {}); // still waiting when the sandbox closes
    while (!sandbox.control.stats()[`GET ${path}`]) await new Promise(setImmediate);
    const next = call(sandbox, path).then(() => 'next' as const);
    return Promise.race([held, next]);
  }

  test('a delay fault holds the next answer only; latencyMs holds every answer', async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'delay', delayMs: 60_000 });
    assert.equal(await firstAnswered(sandbox, paths.me), 'next', 'the delayed one answers later');
    const slow = await sandboxFor(t, { latencyMs: 60_000 });
    let heldAnswered = false;
    call(slow, paths.me).then(
      () => {
        heldAnswered = true;
      },
      () => {}, // still waiting when the sandbox closes
    );
    while (!slow.control.stats()[`GET ${paths.me}`]) await new Promise(setImmediate);
    slow.control.setLatency(0);
    assert.equal((await call(slow, paths.me)).status, 200, 'latency is read per request');
    assert.equal(heldAnswered, false, 'the request that arrived under latencyMs is still held');
  });

  // The latency waits with the same `sleep`, whose cap sleep.test.ts checks on a fake clock.
  test("a delay longer than Node's longest timer (2^31 - 1 ms, about 24.8 days) still holds the answer, instead of answering at once", async (t) => {
    const sandbox = await sandboxFor(t);
    sandbox.control.fail({ kind: 'delay', delayMs: 1e10 });
    assert.equal(await firstAnswered(sandbox, paths.me), 'next', 'the delayed one answers later');
  });

  describe('control.advanceClock', () => {
    test('ages handles and sessions without waiting, in process and over HTTP; after reset a new session redeems', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      const first = await mintSession(sandbox, microsoftForm, adele);
      const advanced = await postControl(sandbox.baseUrl, 'advance-clock', { seconds: 121 });
      assert.equal(advanced.status, 200);
      assert.equal((await fetch(first.embedUrl, { redirect: 'manual' })).status, 401, 'too old');
      const second = await mintSession(sandbox, microsoftForm, adele);
      const sessionUrl = await redeem(second.embedUrl);
      sandbox.control.advanceClock(1800);
      assert.equal((await fetch(sessionUrl)).status, 401, 'the session lapsed');
      sandbox.control.reset();
      const third = await mintSession(sandbox, microsoftForm, adele);
      assert.equal((await fetch(await redeem(third.embedUrl))).status, 200);
    });

    // reset() also clears all that reads the clock (handles, sessions, buckets), so no answer
    // after it tells an offset kept from wall time: the clock itself is read, on a still Date.
    test('reset() returns the clock itself to wall time', (t) => {
      const date = FakeTimers.install({ toFake: ['Date'], now: 1_000_000 });
      t.after(() => date.uninstall());
      const state = new SandboxState(parseOptions(), {
        formsOrigin: 'http://127.0.0.1:1',
        coreFormsOrigin: 'http://127.0.0.1:2',
      });
      const control = createControl(
        state,
        async () => 'http://127.0.0.1:3',
        async () => {},
      );
      control.advanceClock(1801);
      assert.equal(state.clock.now(), Date.now() + 1_801_000);
      control.reset();
      assert.equal(state.clock.now(), Date.now());
      date.tick(5000);
      assert.equal(state.clock.now(), Date.now(), 'and runs with it');
    });

    test('reset() also puts back the Microsoft connection and the latency, and forgets every session', async (t) => {
      const sandbox = await sandboxFor(t);
      const sessionUrl = await redeem((await mintSession(sandbox, microsoftForm, adele)).embedUrl);
      sandbox.control.setMicrosoftConnection({ state: 'broken' });
      sandbox.control.setLatency(60_000);
      sandbox.control.reset();
      const giveUp = new AbortController();
      const answer = await Promise.race([
        requestSession(sandbox, microsoftForm, adele),
        delay(5000, 'held', { signal: giveUp.signal }).catch(() => 'held'),
      ]);
      giveUp.abort();
      assert.ok(answer instanceof Response, 'answered without the 60 s latency');
      assert.equal(answer.status, 200, 'the Microsoft connection is ok again');
      await answer.body?.cancel();
      const page = await fetch(sessionUrl);
      assert.equal(page.status, 401, 'a session from before reset is gone');
      await page.body?.cancel();
    });

    test('refuses anything but a finite number of seconds >= 0', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      for (const seconds of [-1, '5', null, Number.POSITIVE_INFINITY]) {
        const answer = await postControl(sandbox.baseUrl, 'advance-clock', { seconds });
        assert.equal(answer.status, 400, String(seconds));
        assert.match(PlainErrorBodySchema.parse(await answer.json()).error, /seconds/);
      }
      assert.throws(() => sandbox.control.advanceClock(Number.NaN), /seconds/);
    });
  });

  test('in process, a kind outside the type is refused with the words the HTTP action uses', async (t) => {
    // In process, exhaustRateLimit('bogus') rejected with the internal "Cannot destructure
    // property 'burst'", and changeFormsDomain('bogus') moved the Core forms origin.
    const sandbox = await sandboxFor(t);
    const before = sandbox.control.embedOrigins();
    await assert.rejects(
      sandbox.control.exhaustRateLimit('bogus' as 'mints'),
      /^TypeError: kind must be mints or reads$/,
    );
    await assert.rejects(
      sandbox.control.changeFormsDomain('bogus' as 'forms'),
      /^TypeError: kind must be forms or coreForms$/,
    );
    assert.deepEqual(sandbox.control.embedOrigins(), before);
  });

  describe("the HTTP control API checks each action's body", () => {
    const refused = async (sandbox: Sandbox, action: string, body: unknown, error: RegExp) => {
      const answer = await postControl(sandbox.baseUrl, action, body);
      assert.equal(answer.status, 400, `${action} ${JSON.stringify(body)}`);
      assert.match(PlainErrorBodySchema.parse(await answer.json()).error, error);
    };

    test('latency: ms must be a finite number >= 0, not a string or null read as one', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      for (const ms of [null, '5', true, [], -1]) {
        await refused(
          sandbox,
          'latency',
          { ms },
          /^ms must be a finite number of milliseconds >= 0$/,
        );
      }
      await refused(sandbox, 'latency', {}, /^ms must be/);
      assert.throws(
        () => sandbox.control.setLatency(Number.POSITIVE_INFINITY),
        /^TypeError: ms must/,
      );
      assert.equal((await postControl(sandbox.baseUrl, 'latency', { ms: 0 })).status, 200);
    });

    test('fail: every field of the FaultSpec, and no field its kind lacks; nothing is armed', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      const error = { kind: 'error', code: 'unavailable' };
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...error, status: '503' }, /^fault status must be a whole number from 200 to 999$/],
        [{ ...error, status: 1000 }, /^fault status must/],
        [{ kind: 'notJson', status: 502.5 }, /^fault status must/],
        [{ ...error, retryable: 'yes' }, /^fault retryable must be true or false$/],
        [{ ...error, retryAfter: {} }, /^fault retryAfter must be seconds/],
        [{ ...error, retryAfter: 'a\r\nSet-Cookie: x=1' }, /^fault retryAfter must be/],
        [{ ...error, message: 5 }, /^fault message must be a string$/],
        [{ ...error, retryafter: 5 }, /^fault kind error has no field retryafter$/],
        [{ kind: 'reset', delayMs: 5 }, /^fault kind reset has no field delayMs$/],
        [{ kind: 'delay', delayMs: '5' }, /^a delay fault needs delayMs, a finite number >= 0$/],
        [{ kind: 'foreignEmbedUrl', origin: 5 }, /^fault origin must be a string/],
        [{ kind: 'foreignEmbedUrl', scope: 'api' }, /^a foreignEmbedUrl fault is a mint answer/],
        [{ kind: 'reset', count: '2' }, /^fault count must be a whole number >= 1$/],
      ];
      for (const [body, message] of cases) await refused(sandbox, 'fail', body, message);
      assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 0, redeem: 0 });
      assert.throws(
        () => sandbox.control.fail({ kind: 'delay', delayMs: Number.POSITIVE_INFINITY }),
        /delayMs, a finite number/,
      );
      assert.equal((await call(sandbox, paths.me)).status, 200);
    });

    test('a field the action does not take is refused, not ignored', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      await refused(
        sandbox,
        'forms-domain',
        { knd: 'coreForms' },
        /^forms-domain has no field knd: it takes only kind\.$/,
      );
      assert.deepEqual(sandbox.control.embedOrigins(), {
        formsOrigin: sandbox.formsOrigin,
        coreFormsOrigin: sandbox.coreFormsOrigin,
      });
      await refused(
        sandbox,
        'microsoft-connection',
        { state: 'throttled', retryafter: 5 },
        /^microsoft-connection has no field retryafter: it takes only state, retryAfter\.$/,
      );
      // retryAfter belongs to a throttled connection alone, and is whole seconds.
      for (const [body, message] of [
        [{ state: 'ok', retryAfter: 5 }, /^state ok has no field retryAfter$/],
        [{ state: 'throttled', retryAfter: -1 }, /^retryAfter must be a whole number of seconds$/],
        [{ state: 'throttled', retryAfter: 1.5 }, /^retryAfter must be a whole number/],
        [{ state: 'down' }, /^state must be ok, broken or throttled$/],
      ] as const) {
        await refused(sandbox, 'microsoft-connection', body, message);
      }
      assert.equal((await requestSession(sandbox, microsoftForm, adele)).status, 200);
      await refused(
        sandbox,
        'reset',
        { faults: true },
        /^reset has no field faults: it takes none\.$/,
      );
    });

    test('a body that is not a JSON object is refused; no body is an empty one', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      for (const body of [[], 5, 'reset', null]) {
        await refused(sandbox, 'reset', body, /^The body must be a JSON object\.$/);
      }
      const bare = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/reset`, { method: 'POST' });
      assert.equal(bare.status, 200);
    });

    // curl's -d and Python's urllib send a form's Content-Type: the body was read as empty, and
    // forms-domain {"kind": "coreForms"} moved the designer forms' origin instead, answering 200.
    test('a body sent as anything but JSON is refused, not read as empty: nothing is done', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      const before = sandbox.control.embedOrigins();
      for (const type of ['application/x-www-form-urlencoded', 'text/plain']) {
        const answer = await fetch(`${sandbox.baseUrl}${CONTROL_PATH}/forms-domain`, {
          method: 'POST',
          headers: { 'content-type': type },
          body: '{"kind":"coreForms"}',
        });
        assert.equal(answer.status, 400);
        assert.deepEqual(await answer.json(), {
          error: 'Send the body as Content-Type: application/json.',
        });
      }
      assert.deepEqual(sandbox.control.embedOrigins(), before);
    });

    // The same body streamed, chunked with no Content-Length (node:http's write, a proxy), was
    // taken for no body by a check that read Content-Length alone: read as {}, it moved the
    // designer forms' origin, answering 200.
    test('a chunked body with no Content-Length, sent as anything but JSON, is refused too: nothing is done', async (t) => {
      const sandbox = await sandboxFor(t, { controlApi: true });
      const before = sandbox.control.embedOrigins();
      const req = request(`${sandbox.baseUrl}${CONTROL_PATH}/forms-domain`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
      });
      req.write('{"kind":"coreForms"}');
      req.end();
      const [res] = (await once(req, 'response')) as [IncomingMessage];
      assert.equal(req.getHeader('content-length'), undefined);
      assert.equal(res.statusCode, 400);
      assert.deepEqual(JSON.parse(await text(res)), {
        error: 'Send the body as Content-Type: application/json.',
      });
      assert.deepEqual(sandbox.control.embedOrigins(), before);
    });
  });

  test('changing the forms domain opens at most 16 listeners, and reset() closes them', async (t) => {
    const sandbox = await sandboxFor(t);
    const opened: string[] = [];
    for (let i = 0; i < 16; i++)
      opened.push((await sandbox.control.changeFormsDomain()).formsOrigin);
    await assert.rejects(
      sandbox.control.changeFormsDomain(),
      /opened 16 forms domains; reset\(\) closes them/,
    );
    sandbox.control.reset();
    // Closed: a connection to the last new domain is refused once its listener has ended (a
    // turn or two of the event loop after reset(), which does not wait for it).
    let refused = false;
    for (let turn = 0; turn < 100 && !refused; turn++) {
      refused = await fetch(opened.at(-1) ?? '').then(
        () => false,
        () => true,
      );
    }
    assert.ok(refused, 'the new domain still answers after reset()');
    assert.deepEqual(sandbox.control.embedOrigins(), {
      formsOrigin: sandbox.formsOrigin,
      coreFormsOrigin: sandbox.coreFormsOrigin,
    });
    assert.ok(
      isOnEmbedOrigin(
        (await mintSession(sandbox, microsoftForm, adele)).embedUrl,
        sandbox.formsOrigin,
      ),
    );
    assert.ok(
      (await sandbox.control.changeFormsDomain()).formsOrigin.startsWith('http://127.0.0.1:'),
    );
  });

  test('the listeners reset() closes are let go: close() holds only the open ones, however many cycles', async (t) => {
    const sandbox = await sandboxFor(t);
    assert.equal(openListenerCount(sandbox), 3);
    for (let cycle = 0; cycle < 3; cycle++) {
      for (let i = 0; i < 4; i++) await sandbox.control.changeFormsDomain();
      assert.equal(openListenerCount(sandbox), 7, `cycle ${cycle}`);
      sandbox.control.reset();
      // reset() does not wait for the listeners to close: a turn or two of the event loop.
      for (let turn = 0; turn < 100 && openListenerCount(sandbox) > 3; turn++) {
        await new Promise(setImmediate);
      }
      assert.equal(openListenerCount(sandbox), 3, `after reset ${cycle}`);
    }
  });

  test('a forms domain still opening when close() is called is closed too: nothing is left listening', async (t) => {
    const sandbox = await sandboxFor(t);
    const moving = sandbox.control.changeFormsDomain();
    moving.catch(() => {});
    await sandbox.close();
    await assert.rejects(moving, /closed/);
    for (let turn = 0; turn < 100 && openListenerCount(sandbox) > 0; turn++) {
      await new Promise(setImmediate);
    }
    assert.equal(openListenerCount(sandbox), 0, 'a listener outlived close()');
    await assert.rejects(sandbox.control.changeFormsDomain(), /closed/);
    assert.equal(openListenerCount(sandbox), 0, 'a listener opened after close()');
  });

  test('changing the forms domain moves formsOrigin in GET /me and in new embedUrls, on a new live listener', async (t) => {
    const sandbox = await sandboxFor(t);
    const before = await mintSession(sandbox, microsoftForm, adele);
    const origins = await sandbox.control.changeFormsDomain();
    assert.notEqual(origins.formsOrigin, sandbox.formsOrigin);
    assert.deepEqual(sandbox.control.embedOrigins(), origins);
    assert.equal(origins.coreFormsOrigin, sandbox.coreFormsOrigin);
    const org = OrganisationSchema.parse(await (await call(sandbox, paths.me)).json());
    assert.equal(org.formsOrigin, origins.formsOrigin);
    const after = await mintSession(sandbox, microsoftForm, adele);
    assert.ok(isOnEmbedOrigin(after.embedUrl, origins.formsOrigin));
    const page = await fetch(await redeem(after.embedUrl));
    assert.equal(page.status, 200);
    assert.equal(
      (await fetch(await redeem(before.embedUrl))).status,
      200,
      'the old origin still serves',
    );
  });

  test('stats count requests per route, so a client can prove how many upstream calls it made', async (t) => {
    const sandbox = await sandboxFor(t);
    await Promise.all([
      call(sandbox, paths.me),
      call(sandbox, paths.me),
      call(sandbox, '/nowhere'),
    ]);
    await requestSession(
      sandbox,
      { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter },
      adele,
    );
    assert.deepEqual(sandbox.control.stats(), {
      [`GET ${paths.me}`]: 2,
      'GET (no route)': 1,
      [`POST ${paths.coreFormSession}`]: 1,
    });
  });

  test('microsoft connection state: broken, then throttled, then ok again', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    sandbox.control.setMicrosoftConnection({ state: 'broken' });
    assert.equal(
      (await sessionError(await requestSession(sandbox, microsoftForm, adele))).code,
      'microsoft_connection_failed',
    );
    sandbox.control.setMicrosoftConnection({ state: 'throttled', retryAfter: 12 });
    const throttled = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(throttled.headers.get('retry-after'), '12');
    assert.equal((await sessionError(throttled)).code, 'microsoft_unavailable');
    // retryAfter may be left out, in process (its type too) as over HTTP.
    sandbox.control.setMicrosoftConnection({ state: 'throttled' });
    const inProcess = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(inProcess.headers.get('retry-after'), '30', 'retryAfter defaults to 30 s');
    await inProcess.body?.cancel();
    sandbox.control.setMicrosoftConnection({ state: 'throttled', retryAfter: 12 });
    const set = await postControl(sandbox.baseUrl, 'microsoft-connection', { state: 'throttled' });
    assert.equal(set.status, 200);
    const byDefault = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(byDefault.headers.get('retry-after'), '30', 'retryAfter defaults to 30 s');
    await byDefault.body?.cancel();
    const google = await requestSession(
      sandbox,
      { kind: 'form', formId: fixtureIds.forms.google },
      { userIdentifier: fixtureIds.users.alex },
    );
    assert.equal(google.status, 200, 'google forms do not use the Microsoft connection');
    sandbox.control.setMicrosoftConnection({ state: 'ok' });
    assert.equal((await requestSession(sandbox, microsoftForm, adele)).status, 200);
  });
});
