import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { knownSessionErrorCodes, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureKeys, type Sandbox, scenarios, startSandbox } from '@form-embed/sandbox';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;

/** Codes whose upstream answer carries Retry-After, and the value the sandbox sends when fixed. */
const retryAfterOf: Record<string, string | 'seconds'> = {
  rate_limited: 'seconds',
  microsoft_unavailable: '30',
  // An injected 503 says 1 s unless its fault gives another wait.
  unavailable: '1',
};

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret(Object.values(fixtureKeys));
});

describe('every SessionError of the sandbox through the middleware (docs/contract.md#session-errors)', () => {
  test('the sandbox has a scenario for every SessionError code, and each can be produced through the middleware', () => {
    const covered = new Set(scenarios.map((scenario) => scenario.code));
    assert.deepEqual(
      knownSessionErrorCodes.filter((code) => !covered.has(code)),
      [],
    );
  });

  for (const scenario of scenarios) {
    // Every code reaches the browser as it is, with the table's status and retryable; a code the
    // service added after this release, with the service's.
    const { code, status, retryable } = scenario;
    test(`SessionError ${code} reaches the browser as it is, with status ${status}, retryable ${retryable}${retryAfterOf[code] ? ' and Retry-After' : ''}`, async () => {
      sandbox.control.reset();
      try {
        await using portal = await mountMiddleware(watch, {
          apiKey: fixtureKeys[scenario.apiKey ?? 'primary'],
          baseUrl: sandbox.baseUrl,
          resolveUser: () => scenario.user,
        });
        await scenario.setup?.(sandbox.control);
        const answer = await portal.mint(scenario.target);
        assert.equal(answer.status, status, answer.text);
        const { error } = SessionErrorBodySchema.parse(answer.body);
        assert.equal(error.code, code);
        assert.equal(error.retryable, retryable);
        assert.ok(error.message.length > 0);
        assert.equal(answer.headers.get('cache-control'), 'no-store');
        const retryAfter = answer.headers.get('retry-after');
        const expected = retryAfterOf[code];
        if (expected === undefined) assert.equal(retryAfter, null);
        else if (expected === 'seconds') assert.match(retryAfter ?? '', /^[1-9]\d*$/);
        else assert.equal(retryAfter, expected);
        assert.equal(answer.headers.get('x-ratelimit-limit'), null);
        assert.equal(answer.headers.get('x-ratelimit-remaining'), null);
      } finally {
        sandbox.control.reset();
      }
    });
  }
});
