import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  FormSessionError,
  isNewSessionErrorCode,
  knownSessionErrorCode,
  knownSessionErrorCodes,
  readSessionError,
  SessionErrorBodySchema,
  SessionErrorCodes,
  statusOfSessionErrorCode,
  UNKNOWN_CODE_STATUS,
} from '../src/index.js';

// docs/contract.md#session-errors, row by row: code, status, retryable.
const contractTable = `
invalid_request 400 no
invalid_api_key 401 no
rate_limited 429 yes
form_not_found 404 no
form_unpublished 400 no
form_session_unsupported 400 no
client_not_found 404 no
client_not_connected 404 no
client_not_entitled 400 no
tenant_not_connected 403 no
user_not_found 404 no
invalid_user_identifier 400 no
microsoft_permission_denied 403 no
microsoft_unavailable 503 yes
microsoft_connection_failed 500 no
internal_error 500 yes
forbidden 403 no
not_found 404 no
unavailable 503 yes
unknown none no`;

test('the SessionError table holds exactly the twenty codes of the contract, each with its status and retryable', () => {
  const rows = contractTable
    .trim()
    .split('\n')
    .map((row) => row.split(' '));
  assert.deepEqual(
    knownSessionErrorCodes,
    rows.map(([code]) => code),
  );
  for (const [code = '', status, retryable] of rows) {
    assert.deepEqual(
      SessionErrorCodes[code as keyof typeof SessionErrorCodes],
      { status: status === 'none' ? null : Number(status), retryable: retryable === 'yes' },
      code,
    );
  }
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

test('a new code is one written as the table writes its codes, that neither the table nor the portal has', () => {
  assert.equal(isNewSessionErrorCode('seat_limit_reached'), true);
  assert.equal(isNewSessionErrorCode('google_unavailable2'), true);
  assert.equal(isNewSessionErrorCode('rate_limited'), false, 'in the table');
  assert.equal(isNewSessionErrorCode('unknown'), false, 'in the table');
  assert.equal(isNewSessionErrorCode('sign_in_required'), false, 'a portal code');
  assert.equal(isNewSessionErrorCode('suspended'), true, 'one word is a code too');
  assert.equal(
    isNewSessionErrorCode('loading'),
    false,
    "the name of one of the element's sentences",
  );
  for (const code of [
    '',
    'Seat_Limit',
    'seat-limit',
    '_x',
    '9x',
    'a b',
    '<b>',
    `x${'y'.repeat(64)}`,
  ]) {
    assert.equal(isNewSessionErrorCode(code), false, JSON.stringify(code));
  }
  assert.equal(isNewSessionErrorCode(`x${'y'.repeat(63)}`), true, '64 characters');
});

test('an error without a code is not a SessionError; a malformed message or retryable is read leniently', () => {
  for (const error of [{ retryable: true }, { code: 503, message: 'Bad gateway' }, { code: '' }]) {
    assert.equal(readSessionError({ error }), undefined, JSON.stringify(error));
  }
  assert.deepEqual(
    readSessionError({ error: { code: 'unavailable', message: 7, retryable: 'yes' } }),
    {
      code: 'unavailable',
      message: '',
      retryable: false,
    },
  );
  assert.equal(readSessionError({ error: 'plain' }), undefined);
  assert.equal(readSessionError('nope'), undefined);
});

test('the status of a code comes from the table, with a fallback for unknown codes', () => {
  assert.equal(statusOfSessionErrorCode('rate_limited', 418), 429);
  assert.equal(statusOfSessionErrorCode('unknown', UNKNOWN_CODE_STATUS), 400);
  assert.equal(statusOfSessionErrorCode('brand_new', 418), 418);
});

test('a FormSessionError without a message has its code as its message, and retryAfter as an own field even when absent', () => {
  const error = new FormSessionError({
    code: 'unavailable',
    message: '',
    retryable: true,
    status: 503,
  });
  assert.equal(error.message, 'unavailable');
  assert.ok(Object.hasOwn(error, 'retryAfter'));
  assert.equal(error.retryAfter, undefined);
  const told = new FormSessionError({
    code: 'rate_limited',
    message: 'm',
    retryable: true,
    status: 429,
    retryAfter: 7,
  });
  assert.equal(told.retryAfter, 7, 'given, it is kept');
});
