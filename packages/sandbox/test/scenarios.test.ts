import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { knownSessionErrorCodes, readSessionError, SessionErrorCodes } from '@form-embed/protocol';
import { fixtureKeys, type Sandbox, scenarios, startSandbox } from '../src/index.js';
import { requestSession, sessionError } from './helpers.js';

describe('scenarios: every SessionError code is reachable', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  afterEach(() => sandbox.control.reset());
  after(() => sandbox.close());

  test('scenarios cover all 20 codes of the table plus one code the protocol does not know', () => {
    const codes = scenarios.map((s) => s.code);
    assert.equal(new Set(codes).size, codes.length, 'one scenario per code');
    for (const code of knownSessionErrorCodes) assert.ok(codes.includes(code), code);
    assert.equal(codes.filter((c) => !(c in SessionErrorCodes)).length, 1);
  });

  for (const scenario of scenarios) {
    test(`${scenario.code}: ${scenario.description} (${scenario.status}, retryable ${scenario.retryable})`, async () => {
      await scenario.setup?.(sandbox.control);
      const response = await requestSession(sandbox, scenario.target, scenario.user, {
        apiKey: fixtureKeys[scenario.apiKey ?? 'primary'],
      });
      const error = await sessionError(response);
      assert.equal(error.code, scenario.code);
      assert.equal(response.status, scenario.status);
      assert.equal(error.retryable, scenario.retryable);
      const row = SessionErrorCodes[scenario.code as keyof typeof SessionErrorCodes];
      if (row) {
        assert.equal(error.retryable, row.retryable, 'retryable as in the table');
        if (row.status !== null)
          assert.equal(response.status, row.status, 'status as in the table');
      } else {
        assert.equal(readSessionError({ error })?.code, scenario.code, 'an unknown code is kept');
      }
      if (scenario.code === 'rate_limited' || scenario.code === 'microsoft_unavailable') {
        assert.match(response.headers.get('retry-after') ?? '', /^\d+$/);
      }
    });
  }
});
