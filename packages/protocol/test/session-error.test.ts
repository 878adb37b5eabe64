import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  FormSessionError,
  knownSessionErrorCode,
  knownSessionErrorCodes,
  readSessionError,
  SessionErrorBodySchema,
  SessionErrorCodes,
  statusOfSessionErrorCode,
} from '../src/index.js';

test('the SessionError table holds the twenty codes of the contract with their status and retryable', () => {
  assert.equal(knownSessionErrorCodes.length, 20);
  const retryable = knownSessionErrorCodes.filter((code) => SessionErrorCodes[code].retryable);
  assert.deepEqual(retryable.sort(), [
    'internal_error',
    'microsoft_unavailable',
    'rate_limited',
    'unavailable',
  ]);
  assert.equal(SessionErrorCodes.tenant_not_connected.status, 403);
  assert.equal(SessionErrorCodes.microsoft_connection_failed.status, 500);
  assert.equal(SessionErrorCodes.form_unpublished.status, 400);
  assert.equal(SessionErrorCodes.unknown.status, null);
});

test('a code the protocol does not know yet is kept, not refused', () => {
  const body = { error: { code: 'seat_limit_reached', message: 'm', retryable: false } };
  assert.deepEqual(readSessionError(body), {
    code: 'seat_limit_reached',
    message: 'm',
    retryable: false,
  });
  assert.equal(SessionErrorBodySchema.safeParse(body).success, true);
  const error = new FormSessionError({ ...body.error, status: 402 });
  assert.equal(error.code, 'seat_limit_reached');
  assert.equal(knownSessionErrorCode(error.code), 'unknown');
  assert.equal(knownSessionErrorCode('rate_limited'), 'rate_limited');
});

test('a missing or malformed code reads as unknown and not retryable', () => {
  assert.deepEqual(readSessionError({ error: { retryable: 'yes' } }), {
    code: 'unknown',
    message: '',
    retryable: false,
  });
  assert.equal(readSessionError({ error: 'plain' }), undefined);
  assert.equal(readSessionError('nope'), undefined);
});

test('the status of a code comes from the table, with a fallback for unknown codes', () => {
  assert.equal(statusOfSessionErrorCode('rate_limited'), 429);
  assert.equal(statusOfSessionErrorCode('unknown'), 500);
  assert.equal(statusOfSessionErrorCode('brand_new', 418), 418);
});
