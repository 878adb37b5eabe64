import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Sandbox, startSandbox } from '../src/index.js';

describe('connections', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  // Node's default (5 s) races a client reusing an idle connection as the server drops it.
  test('the API and both embed origins keep an idle connection for a minute, as a hosted service does', async () => {
    for (const origin of [sandbox.baseUrl, sandbox.formsOrigin, sandbox.coreFormsOrigin]) {
      const answer = await fetch(`${origin}/`);
      await answer.body?.cancel();
      assert.equal(answer.headers.get('keep-alive'), 'timeout=65', origin);
    }
  });
});
