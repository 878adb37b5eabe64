import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { defaultServicePaths } from '@form-embed/protocol';
import { Validator } from '@seriousme/openapi-schema-validator';
import { call, sandboxFor } from './helpers.js';

interface Document {
  openapi: string;
  info: { version: string };
  paths: Record<string, Record<string, { 'x-service-scope'?: string }>>;
  'x-service-scopes': Record<string, string>;
}

describe('GET /api/v1/openapi.json', () => {
  test('openapi.json is a valid OpenAPI 3.0.3 document, version 1.4.0 (checked by an OpenAPI validator)', async (t) => {
    const sandbox = await sandboxFor(t);
    const response = await call(sandbox, defaultServicePaths.openapi);
    assert.equal(response.status, 200);
    const document = (await response.json()) as Document;
    const validator = new Validator();
    const result = await validator.validate(document as unknown as Record<string, unknown>);
    assert.deepEqual(result.errors ?? [], []);
    assert.equal(result.valid, true);
    assert.equal(validator.version, '3.0');
    assert.equal(document.openapi, '3.0.3');
    assert.equal(document.info.version, '1.4.0');
  });

  test('openapi.json describes every path the sandbox serves; only scoped operations carry x-service-scope, and none of these is', async (t) => {
    const sandbox = await sandboxFor(t);
    const document = (await (await call(sandbox, defaultServicePaths.openapi)).json()) as Document;
    assert.deepEqual(Object.keys(document.paths).sort(), Object.values(defaultServicePaths).sort());
    assert.deepEqual(Object.keys(document['x-service-scopes']).sort(), [
      'core:configure',
      'core:run',
      'executions:manage',
    ]);
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        assert.equal(operation['x-service-scope'], undefined, `${method} ${path}`);
      }
    }
  });
});
