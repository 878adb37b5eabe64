import assert from 'node:assert/strict';
import { request } from 'node:http';
import { describe, test } from 'node:test';
import { CONTROL_PATH, type Sandbox, startSandbox } from '../src/index.js';
import { sandboxFor } from './helpers.js';

/** A real HTTP request to the control API with exactly these headers (Host included). */
function controlRequest(
  sandbox: Sandbox,
  action: string,
  headers: Record<string, string>,
  method = 'POST',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const url = new URL(`${sandbox.baseUrl}${CONTROL_PATH}/${action}`);
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      headers: { 'content-type': 'application/json', ...headers },
    });
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

const apiMe = (sandbox: Sandbox) =>
  fetch(`${sandbox.baseUrl}/api/v1/me`, { headers: { authorization: `Bearer ${sandbox.apiKey}` } });

describe('control API access: loopback Host names only', () => {
  test('a forged Host (DNS rebinding) is refused and the action does not run', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    sandbox.control.fail({ kind: 'error', code: 'unavailable', count: 5 });
    for (const host of ['evil.example', 'evil.example:80', '127.0.0.1.evil.example', '10.0.0.1']) {
      const answer = await controlRequest(sandbox, 'reset', { host });
      assert.equal(answer.status, 403, host);
      assert.match(JSON.parse(answer.body).error, /loopback Host/);
      assert.equal(answer.headers['access-control-allow-origin'], undefined, host);
    }
    assert.equal(
      (await controlRequest(sandbox, 'stats', { host: 'evil.example' }, 'GET')).status,
      403,
    );
    assert.equal((await apiMe(sandbox)).status, 503, 'the faults are still pending: no reset ran');
  });

  test('localhost, *.localhost, 127.0.0.0/8 and [::1] are accepted, with or without a port', async (t) => {
    const sandbox = await sandboxFor(t, { controlApi: true });
    const port = new URL(sandbox.baseUrl).port;
    const hosts = ['localhost', `localhost:${port}`, 'qa.localhost', '127.0.0.1', '127.8.9.10:1'];
    for (const host of [...hosts, `[::1]:${port}`]) {
      assert.equal((await controlRequest(sandbox, 'stats', { host })).status, 200, host);
    }
  });
});

describe('control API access: CORS only for controlOrigins', () => {
  test('a request from a foreign Origin is refused and the action does not run', async (t) => {
    const sandbox = await sandboxFor(t, {
      controlApi: true,
      controlOrigins: ['http://localhost:5173'],
    });
    sandbox.control.fail({ kind: 'error', code: 'unavailable' });
    const foreign = await controlRequest(sandbox, 'reset', {
      host: '127.0.0.1',
      origin: 'https://evil.example',
    });
    assert.equal(foreign.status, 403);
    assert.match(JSON.parse(foreign.body).error, /--control-origin https:\/\/evil\.example/);
    assert.equal(foreign.headers['access-control-allow-origin'], undefined);
    const preflight = await controlRequest(
      sandbox,
      'reset',
      {
        host: '127.0.0.1',
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
      },
      'OPTIONS',
    );
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.equal((await apiMe(sandbox)).status, 503, 'the fault is still pending: no reset ran');
  });

  // A sandboxed frame, a file: page or a cross-origin redirect sends the opaque origin "null":
  // a page of any site can, so it is no allowed origin, however the list reads.
  test('Origin: null is a foreign origin: refused, with no CORS headers, and the action does not run', async (t) => {
    const sandbox = await sandboxFor(t, {
      controlApi: true,
      controlOrigins: ['http://localhost:5173'],
    });
    sandbox.control.fail({ kind: 'error', code: 'unavailable' });
    const opaque = await controlRequest(sandbox, 'reset', { host: '127.0.0.1', origin: 'null' });
    assert.equal(opaque.status, 403);
    assert.match(JSON.parse(opaque.body).error, /^Origin null may not use the control API/);
    assert.equal(opaque.headers['access-control-allow-origin'], undefined);
    const preflight = await controlRequest(
      sandbox,
      'reset',
      { host: '127.0.0.1', origin: 'null', 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    assert.equal(preflight.status, 403);
    assert.equal(preflight.headers['access-control-allow-origin'], undefined);
    assert.equal((await apiMe(sandbox)).status, 503, 'the fault is still pending: no reset ran');
  });

  test('an allowed origin gets CORS headers naming it; a request with no Origin passes', async (t) => {
    const sandbox = await sandboxFor(t, {
      controlApi: true,
      controlOrigins: ['http://localhost:5173'],
    });
    const origin = 'http://localhost:5173';
    const preflight = await controlRequest(
      sandbox,
      'reset',
      { host: '127.0.0.1', origin, 'access-control-request-method': 'POST' },
      'OPTIONS',
    );
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], origin);
    const allowed = await controlRequest(sandbox, 'reset', { host: '127.0.0.1', origin });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers['access-control-allow-origin'], origin);
    assert.match(String(allowed.headers.vary), /Origin/);
    const script = await controlRequest(sandbox, 'reset', { host: '127.0.0.1' });
    assert.equal(script.status, 200);
    assert.equal(script.headers['access-control-allow-origin'], undefined);
  });

  test('controlOrigins must be origins', async () => {
    for (const bad of ['localhost:5173', 'http://localhost:5173/', 'ftp://x.example', '*']) {
      const started = await startSandbox({ controlApi: true, controlOrigins: [bad] }).catch(
        (error: Error) => error,
      );
      if (!(started instanceof Error)) await started.close();
      assert.ok(started instanceof TypeError, bad);
      assert.match(started.message, /option controlOrigins must list origins/);
    }
  });
});
