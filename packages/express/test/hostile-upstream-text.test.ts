import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { answerMe, type FakeUpstream, startFakeUpstream } from './helpers/fake-upstream.js';
import { type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

// A key written as the table writes its codes: lower-case snake_case.
const apiKey = 'fe_live_abc123def456ghi789';
const watch = new SecretWatch();
let upstream: FakeUpstream;
let portal: MountedMiddleware;
/** The `{error}` the fake service answers the next mint with. */
let nextError: { code: string; message: string };

before(async () => {
  upstream = await startFakeUpstream((req, res) => {
    if (answerMe(req, res)) return;
    res.writeHead(409, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { ...nextError, retryable: false } }));
  });
  portal = await mountMiddleware(watch, {
    apiKey,
    baseUrl: upstream.baseUrl,
    resolveUser: () => ({ userIdentifier: 'pat@portal.example' }),
    // One router for the whole file: its tests' mints share one user's count and one minute,
    // which the default of 10 would reach as tests are added. The limits have tests of their own.
    limit: { mints: 1000 },
  });
});

after(async () => {
  await portal.close();
  await upstream.close();
  await watch.assertNoSecret([apiKey]);
});

async function refusalOf(error: typeof nextError) {
  nextError = error;
  const logsBefore = watch.logLines.length;
  const answer = await portal.mint({ kind: 'form', formId: 'frm_1' });
  return {
    answer: SessionErrorBodySchema.parse(answer.body).error,
    status: answer.status,
    logged: watch.logLines.slice(logsBefore),
  };
}

describe('a service that echoes what it should not (docs/contract.md#session-errors)', () => {
  test('a code that is the API key never reaches the browser: it is unknown there, and redacted in the log', async () => {
    const { answer, status, logged } = await refusalOf({ code: apiKey, message: 'echo' });
    assert.equal(answer.code, 'unknown');
    assert.equal(status, 400);
    assert.ok(logged.some((line) => line.message.includes('[redacted]')));
  });

  test('the key with only some of its characters percent-encoded (as strict encoders do) is redacted', async () => {
    const partly = [
      apiKey.replaceAll('_', '%5F'),
      [...apiKey].map((c, i) => (i % 2 ? `%${c.charCodeAt(0).toString(16)}` : c)).join(''),
    ];
    const { logged } = await refusalOf({ code: 'user_not_found', message: partly.join(' | ') });
    const details = JSON.stringify(logged.map((line) => line.details));
    for (const form of partly) assert.ok(!details.includes(form), form);
    assert.equal(details.match(/\[redacted\]/g)?.length, 2, details);
  });

  test('the key written with invisible characters inside (control, zero-width, soft hyphen, line separator) is redacted', async () => {
    const split = ['\u0000', '\u200b', '\u00ad', '\u2028'].map(
      (inside) => `${apiKey.slice(0, 9)}${inside}${apiKey.slice(9)}`,
    );
    for (const [index, written] of split.entries()) {
      // Told apart by the index: redacted, the four would be one line, logged once a minute.
      const message = `key ${written} end ${index}`;
      const { logged } = await refusalOf({ code: 'user_not_found', message });
      const details = JSON.stringify(logged.map((line) => line.details));
      assert.ok(!details.includes(apiKey.slice(9)), details);
      assert.match(details, /key \[redacted\] end/, details);
    }
  });

  test('line breaks, tabs and Unicode line separators in what the service says are logged as spaces', async () => {
    const { logged } = await refusalOf({
      code: 'user_not_found',
      message: 'is required\nfield "email"\tis invalid\u2028ERROR forged',
    });
    const details = JSON.stringify(logged.map((line) => line.details));
    assert.ok(details.includes('is required field \\"email\\" is invalid ERROR forged'), details);
  });

  test('a line break in what the service says cannot forge a log line of its own', async () => {
    const forged = 'x\nERROR [form-embed] forged line';
    const { answer, logged } = await refusalOf({ code: forged, message: `m\r\n${forged}` });
    assert.equal(answer.code, 'unknown');
    for (const line of logged) {
      assert.doesNotMatch(line.message, /[\r\n]/, line.message);
      assert.doesNotMatch(JSON.stringify(line.details), /\\[rn]/, JSON.stringify(line.details));
    }
  });
});
