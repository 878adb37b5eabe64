import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import type { FormEmbedSessionsOptions } from '../src/index.js';
import type { Logger } from '../src/logger.js';
import { LINES_PER_MESSAGE, REPEAT_WINDOW_MS, withoutRepeats } from '../src/repeated-lines.js';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const FAILING_MINTS = 100; // within the sandbox's 120 mints a minute

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

function capture(): { logger: Logger; lines: [string, string, unknown][] } {
  const lines: [string, string, unknown][] = [];
  return {
    lines,
    logger: {
      warn: (message, details) => lines.push(['warn', message, details]),
      error: (message, details) => lines.push(['error', message, details]),
    },
  };
}

describe('a line every request meets is logged once a minute, not once a request', () => {
  test('repeats within the window are counted, and the next line after it says how many were left out', () => {
    const clock = FakeTimers.install({ toFake: ['Date'], now: Date.UTC(2026, 10, 26, 12) });
    try {
      const { logger, lines } = capture();
      const once = withoutRepeats(logger);
      for (let i = 0; i < 1_000; i += 1) once.error('resolveUser threw', { error: 'Error: down' });
      once.error('resolveUser threw', { error: 'Error: another reason' });
      once.warn('resolveUser threw', { error: 'Error: down' });
      assert.deepEqual(lines, [
        ['error', 'resolveUser threw', { error: 'Error: down' }],
        ['error', 'resolveUser threw', { error: 'Error: another reason' }],
        ['warn', 'resolveUser threw', { error: 'Error: down' }],
      ]);
      // The window is the minute the README promises operators, whatever the constant says.
      clock.tick(59_999);
      once.error('resolveUser threw', { error: 'Error: down' });
      assert.equal(lines.length, 3, 'still within the minute');
      clock.tick(1);
      once.error('resolveUser threw', { error: 'Error: down' });
      assert.deepEqual(lines.at(-1), [
        'error',
        'resolveUser threw',
        { error: 'Error: down', repeatsNotLogged: 1_000 },
      ]);
      once.error('resolveUser threw', { error: 'Error: down' });
      assert.equal(lines.length, 4, 'a new window began with that line');
    } finally {
      clock.uninstall();
    }
  });

  test('two errors of one message but different reasons are two lines', () => {
    const { logger, lines } = capture();
    const once = withoutRepeats(logger);
    once.error('resolveUser threw', { error: new Error('session store down') });
    once.error('resolveUser threw', { error: new Error('session store down') });
    once.error('resolveUser threw', { error: new TypeError('user.id is undefined') });
    assert.equal(lines.length, 2);
  });

  test(`${FAILING_MINTS} mints the service answers 503, and ${FAILING_MINTS} whose resolveUser throws, log one line each`, async () => {
    let storeDown = false;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 10 * FAILING_MINTS },
      resolveUser: () => {
        if (storeDown) throw new Error('session store down');
        return { clientId: fixtureIds.clients.contoso, userIdentifier: fixtureIds.users.adele };
      },
    });
    const logsBefore = watch.logLines.length;
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session', count: 1e6 });
    for (let i = 0; i < FAILING_MINTS; i += 1) {
      assert.equal((await portal.mint(microsoftForm)).status, 503);
    }
    sandbox.control.reset();
    storeDown = true;
    for (let i = 0; i < FAILING_MINTS; i += 1) {
      assert.equal((await portal.mint(microsoftForm)).status, 500);
    }
    const logged = watch.logLines.slice(logsBefore).map(({ level, message }) => [level, message]);
    assert.deepEqual(logged, [
      ['warn', 'the service answered unavailable (status 503) on formSession'],
      ['error', 'resolveUser threw'],
    ]);
  });
});

describe('a message whose details the sender chooses is at most ten lines a minute', () => {
  test('1,000 distinct lines of one message: ten are logged, the rest counted, and other lines are still told once', (t) => {
    const clock = FakeTimers.install({ toFake: ['Date'], now: Date.UTC(2026, 10, 28, 12) });
    t.after(() => clock.uninstall());
    const { logger, lines } = capture();
    const once = withoutRepeats(logger);
    for (let i = 0; i < 1_000; i += 1) {
      once.error('authorize threw', { error: 'Error: down', target: `form f${i}` });
      if (i % 10 === 0) once.error('resolveUser threw', { error: 'Error: down' });
    }
    const told = (message: string) => lines.filter(([, said]) => said === message);
    assert.equal(told('authorize threw').length, LINES_PER_MESSAGE);
    assert.deepEqual(told('resolveUser threw'), [
      ['error', 'resolveUser threw', { error: 'Error: down' }],
    ]);
    once.error('authorize threw', { error: 'Error: down', target: 'form f0' });
    assert.equal(told('authorize threw').length, LINES_PER_MESSAGE, 'a repeat: not logged');

    clock.tick(REPEAT_WINDOW_MS);
    once.error('authorize threw', { error: 'Error: down', target: 'form f999' });
    assert.deepEqual(lines.at(-1), [
      'error',
      'authorize threw',
      { error: 'Error: down', target: 'form f999', similarNotLogged: 1_000 - LINES_PER_MESSAGE },
    ]);
    once.error('authorize threw', { error: 'Error: down', target: 'form f0' });
    assert.deepEqual(
      lines.at(-1),
      [
        'error',
        'authorize threw',
        { error: 'Error: down', target: 'form f0', repeatsNotLogged: 1 },
      ],
      'its count was told once, with the first line of the new window',
    );
  });

  /** The lines a portal signed in as Adele logs while minting 30 made-up form ids. */
  async function linesOfMadeUpMints(options: Partial<FormEmbedSessionsOptions>, status: number) {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => ({
        clientId: fixtureIds.clients.contoso,
        userIdentifier: fixtureIds.users.adele,
      }),
      ...options,
    });
    const logsBefore = watch.logLines.length;
    for (let i = 0; i < 30; i += 1) {
      const answer = await portal.mint({ kind: 'form', formId: `made-up-${i}` });
      assert.equal(answer.status, status, answer.text);
    }
    return watch.logLines.slice(logsBefore);
  }

  test('an authorize that throws, met by mints of 30 made-up form ids, logs ten lines', async () => {
    const authorize = () => {
      throw new Error('entitlements database down');
    };
    const logged = (await linesOfMadeUpMints({ authorize }, 500)).map(({ message }) => message);
    assert.deepEqual(logged, Array(LINES_PER_MESSAGE).fill('authorize threw'));
  });

  test('an answer not in the documented shape, or a 404 with no SessionError, met by mints of 30 made-up form ids: ten lines, naming the endpoint with {formId}, the request in their details', async () => {
    for (const [status, answered] of [
      [200, 500],
      [404, 400],
    ]) {
      sandbox.control.fail({ kind: 'notJson', status, scope: 'session', count: 1e6 });
      const logged = await linesOfMadeUpMints({}, answered as number).finally(() =>
        sandbox.control.reset(),
      );
      assert.equal(logged.length, LINES_PER_MESSAGE, `status ${status}`);
      assert.equal(new Set(logged.map(({ message }) => message)).size, 1, `status ${status}`);
      assert.match(logged[0]?.message ?? '', /\/forms\/\{formId\}\/session/);
      assert.match(String(logged[0]?.details?.request), /\/forms\/made-up-0\/session$/);
    }
  });
});

test('a resolveUser that throws a value JSON cannot write (a cycle, a BigInt) is logged as resolveUser threw, and answered as any throw of it', async () => {
  const cycle: Record<string, unknown> = { reason: 'session store down' };
  cycle.self = cycle;
  for (const thrown of [cycle, 10n]) {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => {
        throw thrown;
      },
    });
    const logsBefore = watch.logLines.length;
    const answer = await portal.mint(microsoftForm);
    assert.equal(answer.status, 500);
    assert.match(answer.text, /The portal could not tell who is signed in\./);
    const logged = watch.logLines.slice(logsBefore).map(({ level, message }) => [level, message]);
    assert.deepEqual(logged, [['error', 'resolveUser threw']]);
  }
});

test('500 distinct lines are remembered, the one logged longest ago forgotten first; a line logged again counts as logged then', (t) => {
  const clock = FakeTimers.install({ toFake: ['Date'], now: 1_000_000 });
  t.after(() => clock.uninstall());
  const loggedBy = () => {
    const { logger, lines } = capture();
    const quiet = withoutRepeats(logger);
    return (message: string) => {
      const before = lines.length;
      quiet.warn(message);
      return lines.length > before;
    };
  };
  let logged = loggedBy();
  for (let i = 0; i < 500; i++) assert.ok(logged(`line ${i}`));
  assert.equal(logged('line 0'), false, '500 lines: all remembered');
  assert.ok(logged('line 500'));
  assert.ok(logged('line 0'), 'a 501st line: the oldest is forgotten, and logged at once');

  logged = loggedBy();
  for (let i = 0; i < 499; i++) logged(`line ${i}`);
  clock.tick(REPEAT_WINDOW_MS);
  // Logged again once its window passed: from then on the most recent line, not the oldest.
  assert.ok(logged('line 0'));
  assert.ok(logged('line 499'));
  assert.ok(logged('line 500'));
  assert.equal(logged('line 0'), false, 'line 1 was forgotten, not line 0');
});
