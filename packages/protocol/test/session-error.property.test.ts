import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  isKnownSessionErrorCode,
  isNewSessionErrorCode,
  isPortalErrorCode,
  readSessionError,
  SessionErrorBodySchema,
} from '../src/index.js';

const code = fc.oneof(
  fc.constantFrom('rate_limited', 'unknown', 'sign_in_required', 'loading', 'constructor', ''),
  fc.constantFrom('x'.repeat(64), 'x'.repeat(65)),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,70}$/),
  fc.string(),
);
const anyValue = fc.oneof(fc.jsonValue(), code);
const errorBody = fc.oneof(
  fc.jsonValue(),
  fc.record({ error: anyValue }),
  fc.record(
    { error: fc.record({ code: anyValue, message: anyValue, retryable: anyValue }) },
    { requiredKeys: [] },
  ),
  fc.record({ error: fc.record({ code, message: fc.string(), retryable: fc.boolean() }) }),
);

test('any answer body reads as no SessionError or as one of the documented shape', () => {
  fc.assert(
    fc.property(errorBody, (body) => {
      const detail = readSessionError(body);
      const strict = SessionErrorBodySchema.safeParse(body);
      if (strict.success) assert.deepEqual(detail, strict.data.error);
      if (detail === undefined) return;
      assert.deepEqual(Object.keys(detail).sort(), ['code', 'message', 'retryable']);
      assert.ok(typeof detail.code === 'string' && detail.code !== '');
      assert.equal(typeof detail.message, 'string');
      assert.equal(typeof detail.retryable, 'boolean');
    }),
    { numRuns: 500 },
  );
});

test('a new code is written as the table writes its codes, and is none of the names taken', () => {
  fc.assert(
    fc.property(code, (value) => {
      if (!isNewSessionErrorCode(value)) return;
      assert.match(value, /^[a-z][a-z0-9_]*$/);
      assert.ok(value.length <= 64, value);
      assert.ok(!isKnownSessionErrorCode(value) && !isPortalErrorCode(value), value);
      assert.ok(!['loading', 'retrying', 'offline', 'retry', 'frame'].includes(value), value);
    }),
    { numRuns: 500 },
  );
});
