import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import { defaultServicePaths } from '@form-embed/protocol';
import { startSandbox } from '../src/index.js';

/** Resolves to the error code of a TCP connection to `origin` (`ECONNREFUSED` once closed). */
function connectionOutcome(origin: string): Promise<string> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
  });
}

test('await using closes every listener when the block ends', async () => {
  let origins: string[];
  {
    await using sandbox = await startSandbox();
    origins = [sandbox.baseUrl, sandbox.formsOrigin, sandbox.coreFormsOrigin];
    const me = await fetch(`${sandbox.baseUrl}${defaultServicePaths.me}`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    });
    assert.equal(me.status, 200);
    await me.body?.cancel();
  }
  for (const origin of origins) assert.equal(await connectionOutcome(origin), 'ECONNREFUSED');
});

test('await using closes the sandbox when the block throws', async () => {
  let baseUrl = '';
  await assert.rejects(async () => {
    await using sandbox = await startSandbox();
    baseUrl = sandbox.baseUrl;
    assert.equal(await connectionOutcome(baseUrl), 'connected');
    throw new Error('the test failed');
  }, /the test failed/);
  assert.equal(await connectionOutcome(baseUrl), 'ECONNREFUSED');
});
