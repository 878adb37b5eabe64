import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { PlainErrorBodySchema } from '@form-embed/protocol';
import { CONTROL_PATH, fixtureIds, type Sandbox, startSandbox } from '../src/index.js';
import { type CallOptions, call, sessionError, sessionPath } from './helpers.js';

const adele = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};
const sessionEndpoints = [
  sessionPath({ kind: 'form', formId: fixtureIds.forms.microsoft }),
  sessionPath({ kind: 'coreForm', slug: fixtureIds.coreForms.newStarter }),
];

/** Bodies the parser refuses, each with the words its invalid_request message must name. */
const malformedBodies: Record<string, { options: CallOptions; names: RegExp }> = {
  'malformed JSON': { options: { body: '{"user": ' }, names: /not valid JSON/ },
  'an unsupported charset (text/plain)': {
    options: { body: '{}', headers: { 'content-type': 'text/plain; charset=foo' } },
    names: /charset/,
  },
  'an unsupported charset (application/json)': {
    options: { body: '{}', headers: { 'content-type': 'application/json; charset=foo' } },
    names: /charset/,
  },
  'a body that is not valid gzip': {
    options: { body: 'this is not gzip', headers: { 'content-encoding': 'gzip' } },
    names: /decompressed/,
  },
  'an unknown Content-Encoding': {
    options: { body: '{}', headers: { 'content-encoding': 'x-unknown' } },
    names: /Content-Encoding/,
  },
  'a body over 64kb': {
    options: { body: JSON.stringify({ user: adele, padding: 'x'.repeat(70_000) }) },
    names: /too large/,
  },
};

describe('request bodies', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox({
      controlApi: true,
      limits: {
        mints: { perMinute: 60_000, burst: 1000 },
        reads: { perMinute: 60_000, burst: 1000 },
      },
    });
  });
  after(() => sandbox.close());

  test('auth comes before the body: a malformed body without a key answers 401 (invalid_api_key on the session endpoints, {error} elsewhere)', async () => {
    for (const [name, { options }] of Object.entries(malformedBodies)) {
      for (const path of sessionEndpoints) {
        const response = await call(sandbox, path, { ...options, method: 'POST', apiKey: null });
        assert.equal(response.status, 401, `${name} on ${path}`);
        const error = await sessionError(response);
        assert.equal(error.code, 'invalid_api_key', name);
        assert.equal(error.retryable, false, name);
      }
      const unknown = await call(sandbox, '/api/v1/no-such-thing', {
        ...options,
        method: 'POST',
        apiKey: null,
      });
      assert.equal(unknown.status, 401, `${name} on an unknown route`);
      PlainErrorBodySchema.parse(await unknown.json());
    }
  });

  test('a body the parser refuses answers invalid_request (400, not retryable) naming the problem on the session endpoints, never 500', async () => {
    for (const [name, { options, names }] of Object.entries(malformedBodies)) {
      for (const path of sessionEndpoints) {
        const response = await call(sandbox, path, { ...options, method: 'POST' });
        assert.equal(response.status, 400, `${name} on ${path}`);
        const error = await sessionError(response);
        assert.equal(error.code, 'invalid_request', name);
        assert.equal(error.retryable, false, name);
        assert.match(error.message, names, name);
      }
    }
  });

  test('routing comes before the body: a malformed body on an unknown route answers 404 {error} with a key', async () => {
    for (const [name, { options }] of Object.entries(malformedBodies)) {
      const response = await call(sandbox, '/api/v1/no-such-thing', { ...options, method: 'POST' });
      assert.equal(response.status, 404, name);
      PlainErrorBodySchema.parse(await response.json());
    }
  });

  test('elsewhere a body the parser refuses answers {error} 400 naming the problem (the control API)', async () => {
    for (const [name, { options, names }] of Object.entries(malformedBodies)) {
      // The control API reads JSON bodies only; it ignores a text/plain one.
      if (options.headers?.['content-type']?.startsWith('text/plain')) continue;
      const response = await call(sandbox, `${CONTROL_PATH}/stats`, {
        ...options,
        method: 'POST',
        apiKey: null,
      });
      assert.equal(response.status, 400, name);
      const body = PlainErrorBodySchema.parse(await response.json());
      assert.match(body.error, names, name);
    }
  });

  test('a gzip-compressed JSON body is inflated and answered like a plain one', async () => {
    const [path] = sessionEndpoints;
    assert.ok(path);
    const response = await call(sandbox, path, {
      method: 'POST',
      body: new Uint8Array(gzipSync(JSON.stringify({ user: adele }))),
      headers: { 'content-encoding': 'gzip' },
    });
    assert.equal(response.status, 200);
  });
});
