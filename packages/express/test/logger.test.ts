import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { pino } from 'pino';
import { consoleLogger } from '../src/console-logger.js';
import { INVISIBLE, redactingLogger, shownValue } from '../src/logger.js';
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

/** A real pino logger writing JSON lines into `lines` (and into the secret watch). */
function pinoInto(lines: Record<string, unknown>[]) {
  const destination = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n').filter(Boolean)) {
        watch.recordLogLine(line);
        lines.push(JSON.parse(line));
      }
      done();
    },
  });
  return pino({ level: 'warn' }, destination);
}

describe('a pino logger', () => {
  test('is taken as it is: the message is the line msg and the details are fields of the line', async () => {
    const lines: Record<string, unknown>[] = [];
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: pinoInto(lines),
      resolveUser: () => {
        throw new Error(`portal session store down (${sandbox.apiKey})`);
      },
    });
    const answer = await portal.mint(microsoftForm);
    assert.equal(answer.status, 500);
    const line = lines.find((entry) => entry.msg === 'resolveUser threw');
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 50);
    assert.equal(line.error, 'Error: portal session store down ([redacted])');
  });

  test('warnings keep their details too', async () => {
    const lines: Record<string, unknown>[] = [];
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: pinoInto(lines),
    });
    sandbox.control.fail({ kind: 'reset', scope: 'session' });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
    const line = lines.find((entry) => String(entry.msg).includes('could not be reached'));
    assert.ok(line, JSON.stringify(lines));
    assert.equal(line.level, 40);
    assert.equal(typeof line.reason, 'string');
  });
});

describe('the default logger, console', () => {
  test('writes one line an entry, naming its level, with its details as JSON', (t) => {
    const written: [string, unknown[]][] = [];
    t.mock.method(console, 'warn', (...args: unknown[]) => written.push(['warn', args]));
    t.mock.method(console, 'error', (...args: unknown[]) => written.push(['error', args]));
    consoleLogger.warn('the service could not be reached for POST formSession', {
      request: 'POST https://api.example/api/v1/forms/{formId}/session',
      reason: 'TypeError: ECONNREFUSED',
    });
    consoleLogger.error('resolveUser threw');
    assert.deepEqual(written, [
      [
        'warn',
        [
          '[form-embed] warn: the service could not be reached for POST formSession {"request":"POST https://api.example/api/v1/forms/{formId}/session","reason":"TypeError: ECONNREFUSED"}',
        ],
      ],
      ['error', ['[form-embed] error: resolveUser threw']],
    ]);
  });
});

describe('redactingLogger', () => {
  const key = 'fe_test_k3y+/=';
  const lines: string[] = [];
  const logger = redactingLogger(
    {
      warn: (message, details) => lines.push(message, JSON.stringify(details)),
      error: (message, details) => lines.push(message, JSON.stringify(details)),
    },
    key,
  );

  test('cuts the API key out of the message and every detail, in its encoded forms too', () => {
    const forms = [
      key,
      encodeURIComponent(key),
      encodeURIComponent(encodeURIComponent(key)),
      Buffer.from(key).toString('base64'),
    ];
    for (const form of forms) logger.error(`upstream said ${form}`, { body: `x${form}x` });
    const logged = lines.join('\n');
    for (const form of forms) assert.equal(logged.includes(form), false, form);
    assert.match(logged, /\[redacted\]/);
  });

  test('keeps a number or a boolean as it is, unless its text is the key', () => {
    const kept: unknown[] = [];
    const keep = (_message: string, details?: Record<string, unknown>) => kept.push(details);
    redactingLogger({ warn: keep, error: keep }, key).warn('outage over', {
      outageSeconds: 12,
      failedRequests: 0,
      shared: false,
    });
    redactingLogger({ warn: keep, error: keep }, '31415926').warn('odd key', { n: 31415926 });
    assert.deepEqual(kept, [
      { outageSeconds: 12, failedRequests: 0, shared: false },
      { n: '[redacted]' },
    ]);
  });

  test('cuts a key with a quote or a backslash out of a JSON text that escapes them', () => {
    const quoted = 'fe_"k3y\\0123';
    const said: string[] = [];
    const quoting = redactingLogger(
      { warn: (message) => said.push(message), error: (message) => said.push(message) },
      quoted,
    );
    const body = JSON.stringify({ error: { message: `bad key ${quoted}` } });
    assert.ok(!body.includes(quoted), 'the body holds only the escaped form');
    quoting.warn(`upstream answered ${body}`);
    assert.equal(
      said[0],
      `upstream answered ${body.replace(JSON.stringify(quoted).slice(1, -1), '[redacted]')}`,
    );
  });
});

describe('a value from the service, as a log line quotes it (shownValue)', () => {
  test('is quoted, with every invisible character escaped: line and paragraph separators, NEL, a direction override, zero width', () => {
    const shown = shownValue('a\u2028b\u0085c\u202Ed\u200Be\nf');
    assert.equal(shown, '"a\\u2028b\\u0085c\\u202ed\\u200be\\nf"');
    assert.doesNotMatch(shown, INVISIBLE);
  });

  test('is cut at 100 characters, saying how many it had; not a string, it is written as JSON', () => {
    assert.equal(shownValue('x'.repeat(150)), `"${'x'.repeat(100)}"… (150 characters)`);
    assert.equal(shownValue({ authType: 'saml' }), '"{\\"authType\\":\\"saml\\"}"');
  });
});
