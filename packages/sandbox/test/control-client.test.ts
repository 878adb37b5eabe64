import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { defaultServicePaths as paths } from '@form-embed/protocol';
import FakeTimers from '@sinonjs/fake-timers';
import { build } from 'esbuild';
import { ControlApiError, type ControlStats, controlClient, fixtureIds } from '../src/index.js';
import {
  call,
  mintSession,
  redeem,
  requestSession,
  sandboxFor,
  sessionError,
  sessionPath,
} from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

describe('controlClient: sandbox.control over HTTP, typed', () => {
  test('drives a started sandbox over HTTP: faults, the Microsoft connection, stats and reset', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const control = controlClient(`${sandbox.baseUrl}/`);
    assert.equal(
      await control.fail({ kind: 'error', code: 'unavailable', scope: 'session' }),
      undefined,
    );
    const faulted = await requestSession(sandbox, microsoftForm, adele);
    assert.equal((await sessionError(faulted)).code, 'unavailable');
    await control.setMicrosoftConnection({ state: 'throttled', retryAfter: 9 });
    const throttled = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(throttled.status, 503);
    assert.equal(throttled.headers.get('retry-after'), '9');
    await throttled.body?.cancel();
    await control.setLatency(0);
    await control.fail({ kind: 'reset', scope: 'redeem', count: 2 });
    const stats = await control.stats();
    assert.equal(stats.requests[`POST ${paths.formSession}`], 2);
    assert.deepEqual(stats.faults, { api: 0, session: 0, redeem: 2 });
    assert.deepEqual(stats.store, sandbox.control.storeStats());
    await control.reset();
    assert.deepEqual(sandbox.control.stats(), {});
    assert.deepEqual(sandbox.control.pendingFaults(), { api: 0, session: 0, redeem: 0 });
  });

  test('stats() tells over HTTP how many held requests were dropped by their client, 0 again after reset()', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const control = controlClient(sandbox.baseUrl);
    await control.setLatency(60_000);
    const leave = new AbortController();
    const mint = fetch(`${sandbox.baseUrl}${sessionPath(microsoftForm)}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ user: adele }),
      signal: leave.signal,
    });
    mint.catch(() => {}); // aborted below
    const route = `POST ${paths.formSession}`;
    const deadline = performance.now() + 5000;
    const until = async (ready: (stats: ControlStats) => boolean, what: string) => {
      while (!ready(await control.stats())) {
        assert.ok(performance.now() < deadline, what);
        await delay(10);
      }
    };
    await until((stats) => stats.requests[route] === 1, 'the mint never arrived');
    assert.equal((await control.stats()).dropped, 0, 'held, not yet dropped');
    leave.abort();
    await until((stats) => stats.dropped === 1, 'the mint its client left is not counted');
    assert.equal(sandbox.control.droppedRequests(), 1);
    await control.reset();
    assert.equal((await control.stats()).dropped, 0);
  });

  test('moves the clock, empties and refills the mint limit, lapses sessions and changes the forms domain', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const control = controlClient(sandbox.baseUrl);
    const clock = FakeTimers.install({ toFake: ['Date'] });
    t.after(() => clock.uninstall());
    await control.exhaustRateLimit('mints');
    const limited = await requestSession(sandbox, microsoftForm, adele);
    assert.equal(limited.status, 429);
    await limited.body?.cancel();
    await control.advanceClock(60);
    const minted = await mintSession(sandbox, microsoftForm, adele);
    const sessionUrl = await redeem(minted.embedUrl);
    await control.expireSessions();
    const lapsed = await (await fetch(sessionUrl)).text();
    assert.match(lapsed, /Your session has ended/);
    const origins = await control.changeFormsDomain('coreForms');
    assert.deepEqual(origins, sandbox.control.embedOrigins());
    assert.notEqual(origins.coreFormsOrigin, sandbox.coreFormsOrigin);
    assert.equal(origins.formsOrigin, sandbox.formsOrigin);
    // No kind, as in process: the designer forms origin moves (the argument is optional).
    const moved = await control.changeFormsDomain();
    assert.notEqual(moved.formsOrigin, sandbox.formsOrigin);
    assert.equal(moved.coreFormsOrigin, origins.coreFormsOrigin);
  });

  test("a refused action rejects with a ControlApiError carrying the sandbox's status and message", async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const control = controlClient(sandbox.baseUrl);
    await assert.rejects(control.advanceClock(-1), (error: unknown) => {
      assert.ok(error instanceof ControlApiError);
      assert.equal(error.status, 400);
      assert.match(error.message, /advance-clock: 400 seconds must be a finite number >= 0/);
      return true;
    });
    // A kind misspelt over HTTP (no types there) is refused, not read as the designer forms'.
    await assert.rejects(
      control.changeFormsDomain('coreform' as 'coreForms'),
      /forms-domain: 400 kind must be forms or coreForms/,
    );
    assert.deepEqual(sandbox.control.embedOrigins(), {
      formsOrigin: sandbox.formsOrigin,
      coreFormsOrigin: sandbox.coreFormsOrigin,
    });
    const off = await sandboxFor(t);
    // The API's own 401 ("Missing API key") would send a partner off adding a key: the control
    // API never answers 401, so the message says plainly that it is off, and where.
    await assert.rejects(controlClient(off.baseUrl).reset(), (error: unknown) => {
      assert.ok(error instanceof ControlApiError);
      assert.equal(error.status, 401);
      assert.equal(
        error.message,
        `sandbox control reset: 401: the sandbox at ${off.baseUrl} serves no control API; start it with --control (controlApi: true)`,
      );
      return true;
    });
    assert.equal((await call(off, paths.me)).status, 200);
  });

  test("a baseUrl with a path, query or fragment is refused when the client is made: read as the sandbox's, it met no control API and was told as one started without --control", async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    for (const extra of ['/app', '/app/', '/?port=1', '#top']) {
      assert.throws(
        () => controlClient(`${sandbox.baseUrl}${extra}`),
        (error: unknown) => {
          assert.ok(error instanceof TypeError, String(error));
          assert.match(error.message, /baseUrl must be the sandbox's origin/);
          return true;
        },
        extra,
      );
    }
    assert.equal(await controlClient(`${sandbox.baseUrl}/`).setLatency(0), undefined);
  });

  test('its entry point bundles for the browser: no Node module, no Express', async () => {
    const src = fileURLToPath(new URL('../src/', import.meta.url));
    const result = await build({
      entryPoints: [join(src, 'control-client.ts')],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    assert.ok(
      // Relative to the working directory: only the package's own sources, nothing else.
      inputs.every((input) => resolve(input).startsWith(src)),
      inputs.join(),
    );
    assert.doesNotMatch(result.outputFiles[0]?.text ?? '', /node:|express/);
  });
});
