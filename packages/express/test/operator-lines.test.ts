import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

before(async () => {
  sandbox = await startSandbox();
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** The lines logged while `work` runs, as `level message`. */
async function linesOf(work: () => Promise<void>): Promise<string[]> {
  const logsBefore = watch.logLines.length;
  await work();
  return watch.logLines.slice(logsBefore).map(({ level, message }) => `${level} ${message}`);
}

describe('the lines an operator acts on say what happened and what to do', () => {
  test('a key the service refuses while the portal runs is an error, once, naming apiKey', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const lines = await linesOf(async () => {
      sandbox.control.fail({ kind: 'error', code: 'invalid_api_key', scope: 'session', count: 5 });
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 401);
      }
    });
    assert.deepEqual(lines, [
      'error the service answered invalid_api_key (status 401): the key is revoked, expired or mistyped; give apiKey a valid key of the organisation',
    ]);
  });

  test('a key refused from the start is its one error line, whatever endpoints meet it: not a second about the embed origins, nor one per endpoint', async () => {
    const logsBefore = watch.logLines.length;
    await using portal = await mountMiddleware(watch, {
      apiKey: 'fe_test_notTheOrganisationsKey1',
      baseUrl: sandbox.baseUrl,
    });
    // The mint waits for the read of GET /me begun at creation, and its answer comes after it; the
    // menu reads the forms, the Core forms and the user's client.
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 401);
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 401);
    const lines = watch.logLines
      .slice(logsBefore)
      .map(({ level, message }) => `${level} ${message}`);
    assert.deepEqual(lines, [
      'error the service refused the API key (401): the key is revoked, expired or mistyped; give apiKey a valid key of the organisation',
    ]);
  });

  test("the organisation's Microsoft connection broken is an error saying an administrator reconnects it", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const lines = await linesOf(async () => {
      sandbox.control.setMicrosoftConnection({ state: 'broken' });
      assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 500);
    });
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(
      lines[0] ?? '',
      /^error the service answered microsoft_connection_failed \(status 500\): .*an administrator of the organisation reconnects it at the service/,
    );
  });

  test("the organisation's limit at the service spent is a warning naming the limits to lower", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const lines = await linesOf(async () => {
      sandbox.control.exhaustRateLimit('mints');
      assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 429);
    });
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0] ?? '', /^warn the service answered rate_limited .*lower limit\.mints/);
  });

  test("the reads limit at the service spent is a warning naming the catalogue's settings, not the mint limits", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const lines = await linesOf(async () => {
      sandbox.control.exhaustRateLimit('reads');
      const catalogue = await portal.request('/forms', { session: 'adele' });
      assert.equal(catalogue.status, 429);
    });
    assert.ok(lines.length > 0, 'no line');
    for (const line of lines) {
      assert.match(line, /^warn the service answered 429 on \w+: the reads limit at the service/);
      assert.match(line, /catalogue\.cacheTtlMs/);
      assert.doesNotMatch(line, /limit\.mints/);
    }
  });

  test("the service's 500 error page is a warning that the service failed, not a hint to change baseUrl or paths", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const lines = await linesOf(async () => {
      sandbox.control.fail({ kind: 'notJson', status: 500, scope: 'session', count: 3 });
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 500);
      }
    });
    assert.equal(lines.length, 1, lines.join('\n'));
    assert.match(lines[0] ?? '', /^warn the service failed \(status 500\) on formSession/);
    assert.doesNotMatch(lines[0] ?? '', /check baseUrl/);
  });

  test("Microsoft throttling, and a connection that may not read a client's users, are warnings saying what to do", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const lines = await linesOf(async () => {
      sandbox.control.fail({
        kind: 'error',
        code: 'microsoft_permission_denied',
        scope: 'session',
      });
      assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 403);
      sandbox.control.setMicrosoftConnection({ state: 'throttled', retryAfter: 300 });
      assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
    });
    assert.equal(lines.length, 2, lines.join('\n'));
    assert.match(
      lines[0] ?? '',
      /^warn the service answered microsoft_permission_denied \(status 403\) on formSession: .*an administrator of the organisation grants it at the service$/,
    );
    assert.match(
      lines[1] ?? '',
      /^warn the service answered microsoft_unavailable \(status 503\) on formSession: .*nothing in the portal to change, it passes on its own/,
    );
  });

  test('an outage is one line a minute per endpoint, whatever the forms, and its end is told once, with how long it lasted', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const logsBefore = watch.logLines.length;
    const other = { kind: 'form', formId: fixtureIds.forms.google } as const;
    sandbox.control.fail({ kind: 'reset', scope: 'session', count: 3 });
    for (const form of [microsoftForm, other, microsoftForm]) {
      assert.equal((await portal.mint(form, { session: 'adele' })).status, 503);
    }
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const logged = watch.logLines.slice(logsBefore);
    assert.deepEqual(
      logged.map(({ level, message }) => `${level} ${message}`),
      [
        'warn the service could not be reached for POST formSession',
        'warn the service answers POST formSession again',
      ],
    );
    assert.equal(
      logged[0]?.details?.request,
      `POST ${sandbox.baseUrl}/api/v1/forms/{formId}/session`,
    );
    assert.equal(logged[1]?.details?.failedRequests, 3);
    assert.equal(typeof logged[1]?.details?.outageSeconds, 'number');
  });

  test('a second outage within a minute of the first is told as it begins and ends, each line naming its outage by since', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const logsBefore = watch.logLines.length;
    const clock = FakeTimers.install({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 9) });
    try {
      for (const outage of [1, 2]) {
        sandbox.control.fail({ kind: 'reset', scope: 'session', count: 1 });
        assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
        assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
        clock.tick(outage * 10_000);
      }
    } finally {
      clock.uninstall();
    }
    assert.deepEqual(
      watch.logLines
        .slice(logsBefore)
        .map(({ level, message, details }) => `${level} ${message} ${details?.since}`),
      [
        'warn the service could not be reached for POST formSession 2026-11-28T09:00:00.000Z',
        'warn the service answers POST formSession again 2026-11-28T09:00:00.000Z',
        'warn the service could not be reached for POST formSession 2026-11-28T09:00:10.000Z',
        'warn the service answers POST formSession again 2026-11-28T09:00:10.000Z',
      ],
    );
  });

  test('a new forms domain is a warning, once, naming the old and new origins and the CSP', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const before = sandbox.control.embedOrigins();
    const lines = await linesOf(async () => {
      await sandbox.control.changeFormsDomain('forms');
      for (let i = 0; i < 3; i += 1) {
        assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
      }
    });
    const after = sandbox.control.embedOrigins();
    assert.deepEqual(lines, [
      `warn the organisation's embed origins changed (formsOrigin ${before.formsOrigin} -> ${after.formsOrigin}): mints use the new ones; a Content-Security-Policy frame-src that names the old ones must take them from the Router's embedOrigins()`,
    ]);
  });
});
