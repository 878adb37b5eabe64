import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { type Answer, type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1000 },
  });
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

function errorOf(answer: Answer) {
  return SessionErrorBodySchema.parse(answer.body).error;
}

/** The API key in the encoded forms an upstream message might carry it. */
function encodedKeys(key: string): string[] {
  const bytes = Buffer.from(key);
  return [
    [...bytes].map((byte) => `%${byte.toString(16).toUpperCase()}`).join(''),
    [...bytes].map((byte) => `%${byte.toString(16)}`).join(''),
    bytes.toString('base64'),
    Buffer.from(`Bearer ${key}`).toString('base64'),
    bytes.toString('base64url'),
    bytes.toString('hex'),
  ];
}

describe("the service's refusals towards the browser (docs/contract.md#session-errors)", () => {
  test("the service's operator message never reaches the browser: it gets our fixed sentence, and the log gets the message with the key redacted in every encoded form", async () => {
    const encoded = encodedKeys(sandbox.apiKey);
    const operatorMessage = `Upstream detail: ${encoded.join(' | ')} raw ${sandbox.apiKey}`;
    sandbox.control.fail({
      kind: 'error',
      code: 'user_not_found',
      message: operatorMessage,
      scope: 'session',
    });
    const logsBefore = watch.logLines.length;
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 404, answer.text);
    assert.equal(errorOf(answer).message, "The user is not in the client's directory.");
    assert.ok(!answer.text.includes('Upstream detail'));
    const logged = JSON.stringify(watch.logLines.slice(logsBefore));
    assert.match(logged, /Upstream detail/, 'the operator message is logged');
    for (const form of [sandbox.apiKey, ...encoded.map((text) => text.slice(12, 28))]) {
      assert.ok(!logged.includes(form), `the log carries the key as ${form}`);
    }
  });

  test("a code outside the table, written as its codes are, is passed on with the service's status, retryable flag and Retry-After, and our own message", async () => {
    sandbox.control.fail({
      kind: 'error',
      code: 'brand_new_refusal',
      status: 409,
      retryable: true,
      retryAfter: 7,
      message: 'Upstream detail for operators',
      scope: 'session',
    });
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 409, answer.text);
    assert.deepEqual(errorOf(answer), {
      code: 'brand_new_refusal',
      message: 'The service refused the request for a reason this release does not know.',
      retryable: true,
    });
    assert.equal(answer.headers.get('retry-after'), '7');
    assert.ok(!answer.text.includes('Upstream detail'));

    sandbox.control.fail({
      kind: 'error',
      code: 'brand_new_refusal',
      status: 400,
      retryable: false,
      retryAfter: 7,
      scope: 'session',
    });
    const final = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(final.status, 400, final.text);
    assert.deepEqual(
      { code: errorOf(final).code, retryable: errorOf(final).retryable },
      { code: 'brand_new_refusal', retryable: false },
      'at 400, the lowest error status, passed on too',
    );
    assert.equal(final.headers.get('retry-after'), null, 'Retry-After only where a retry is due');
  });

  test('a code not written as the table writes its codes, a portal code, or a new code on a status that is not an error becomes unknown: 400, not retryable, no Retry-After', async () => {
    const cases = [
      ...['Brand New', '<b>x</b>', 'x'.repeat(65), 'sign_in_required'].map((code) => ({
        code,
        status: 503,
      })),
      // 300 is no redirect to fetch: the answer arrives, but refuses nothing a status can say.
      { code: 'brand_new_refusal', status: 300 },
      // Past 599 is no HTTP status the browser should be given.
      { code: 'brand_new_refusal', status: 799 },
    ];
    for (const { code, status } of cases) {
      sandbox.control.fail({
        kind: 'error',
        code,
        status,
        retryable: true,
        retryAfter: 7,
        scope: 'session',
      });
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 400, `${code}: ${answer.text}`);
      assert.deepEqual(errorOf(answer), {
        code: 'unknown',
        message: 'The service refused the request for a reason this release does not know.',
        retryable: false,
      });
      assert.equal(answer.headers.get('retry-after'), null, code);
    }
  });

  test("a known code with a status or retryable flag the table does not give it is answered with the table's; a 418 never passes", async () => {
    sandbox.control.fail({
      kind: 'error',
      code: 'form_not_found',
      status: 418,
      retryable: true,
      scope: 'session',
    });
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 404, answer.text);
    assert.equal(errorOf(answer).code, 'form_not_found');
    assert.equal(errorOf(answer).retryable, false);
    sandbox.control.fail({ kind: 'notJson', status: 418, scope: 'session' });
    const teapot = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(teapot.status, 500, 'a 418 that is not a SessionError is internal_error');
    assert.equal(errorOf(teapot).code, 'internal_error');
  });
});

describe('Retry-After towards the browser (docs/contract.md#retry-after)', () => {
  async function retryAfterFor(upstream: string, client = portal): Promise<string | null> {
    sandbox.control.fail({
      kind: 'error',
      code: 'unavailable',
      retryAfter: upstream,
      scope: 'session',
    });
    const answer = await client.mint(microsoftForm, { session: 'adele' });
    assert.equal(errorOf(answer).code, 'unavailable', answer.text);
    return answer.headers.get('retry-after');
  }

  test('is a whole number of seconds, capped at 120 by default (a long digit string, a day, a date ten days ahead); a date within the cap is the seconds until it', async () => {
    const tenDaysAhead = new Date(Date.now() + 10 * 86_400_000).toUTCString();
    for (const upstream of ['1'.padEnd(24, '0'), '86400', tenDaysAhead]) {
      assert.equal(await retryAfterFor(upstream), '120', upstream);
    }
    // The clock stands still on a whole second, so the date is exactly 30 s ahead when read.
    const clock = FakeTimers.install({ toFake: ['Date'], now: Date.UTC(2026, 10, 23, 12) });
    try {
      const inThirtySeconds = new Date(Date.now() + 30_000);
      const [day, dd, month, year, time] = inThirtySeconds.toUTCString().split(' ');
      const asctime = `${day?.slice(0, 3)} ${month} ${dd?.replace(/^0/, ' ')} ${time} ${year}`;
      for (const date of [inThirtySeconds.toUTCString(), asctime]) {
        assert.equal(await retryAfterFor(date), '30', date);
      }
    } finally {
      clock.uninstall();
    }
  });

  test('anything that is neither delta-seconds nor an HTTP-date is dropped', async () => {
    for (const upstream of ['x 5', '1.5', '-5', 'soon', '5 minutes']) {
      assert.equal(await retryAfterFor(upstream), null, upstream);
    }
  });

  test("a 429 always carries it: without the service's, or with one unreadable, the limit window of 60 s", async () => {
    for (const retryAfter of [null, 'soon']) {
      sandbox.control.fail({ kind: 'error', code: 'rate_limited', retryAfter, scope: 'session' });
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 429, answer.text);
      assert.equal(answer.headers.get('retry-after'), '60', String(retryAfter));
    }
  });

  test('a 429 of a code this release does not know carries it too, retryable or not: the service’s wait, or the limit window', async () => {
    for (const [retryable, retryAfter, told] of [
      [false, '30', '30'],
      [false, null, '60'],
      [true, '30', '30'],
    ] as const) {
      sandbox.control.fail({
        kind: 'error',
        code: 'quota_exceeded',
        status: 429,
        retryable,
        retryAfter,
        scope: 'session',
      });
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 429, answer.text);
      assert.equal(answer.headers.get('retry-after'), told, `${retryable} ${retryAfter}`);
    }
  });

  /** The Retry-After of the answer to `rate_limited` on a 503 that gave no wait of its own. */
  async function rateLimitedWithoutWait(client = portal): Promise<string | null> {
    sandbox.control.fail({
      kind: 'error',
      code: 'rate_limited',
      status: 503,
      retryAfter: null,
      scope: 'session',
    });
    const answer = await client.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 429, answer.text);
    return answer.headers.get('retry-after');
  }

  test('rate_limited on another status is still a 429, and still says how long to wait', async () => {
    assert.equal(await rateLimitedWithoutWait(), '60');
  });

  test('the cap is the maxRetryAfterSeconds option', async () => {
    await using capped = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      maxRetryAfterSeconds: 10,
    });
    assert.equal(await retryAfterFor('86400', capped), '10');
    assert.equal(await retryAfterFor('7', capped), '7');
    // The 60 s a 429 without a wait of its own is told is capped too.
    assert.equal(await rateLimitedWithoutWait(capped), '10');
  });
});
