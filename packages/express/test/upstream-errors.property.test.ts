import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  isKnownSessionErrorCode,
  isNewSessionErrorCode,
  SessionErrorCodes,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol';
import fc from 'fast-check';
import { UpstreamErrors } from '../src/upstream-errors.js';
import { notJson, tooLarge } from '../src/upstream-request.js';

const apiKey = 'fe_test_7Qm2xVb9LkP4sT8wZc3N';
const routes = ['formSession', 'coreFormSession', 'me', 'forms', 'coreForms', 'clients'] as const;

/** The key as a hostile or careless service might echo it: whole, cased, percent-encoded, split. */
const echoed = fc.oneof(
  fc.constantFrom(apiKey, apiKey.toLowerCase(), encodeURIComponent(`Bearer ${apiKey}`)),
  fc
    .tuple(
      fc.integer({ min: 1, max: apiKey.length - 1 }),
      fc.constantFrom('\u0000', '\n', '\u001b'),
    )
    .map(([at, control]) => `${apiKey.slice(0, at)}${control}${apiKey.slice(at)}`),
);
const text = fc.oneof(fc.string(), echoed);
const code = fc.oneof(
  fc.constantFrom(...Object.keys(SessionErrorCodes), 'sign_in_required', 'loading', 'a_new_code'),
  fc.stringMatching(/^[a-z][a-z0-9_]{0,66}$/),
  text,
);
const body = fc.oneof(
  fc.constantFrom(notJson, tooLarge, undefined),
  fc.jsonValue(),
  fc.record({ error: fc.oneof(text, fc.jsonValue()) }),
  fc.record({
    error: fc.record(
      {
        code: fc.oneof(code, fc.jsonValue()),
        message: fc.oneof(text, fc.jsonValue()),
        retryable: fc.jsonValue(),
      },
      { requiredKeys: [] },
    ),
  }),
  fc.record({ error: fc.record({ code, message: text, retryable: fc.boolean() }) }),
);
const answer = fc.record({
  status: fc.oneof(
    fc.integer({ min: 100, max: 599 }),
    fc.constantFrom(400, 401, 403, 404, 405, 410, 414, 418, 429, 431, 502, 503, 504),
  ),
  request: fc.constant('POST https://service.example/api/v1/forms/f/session'),
  endpoint: fc.constant('POST https://service.example/api/v1/forms/{formId}/session'),
  retryAfter: fc.option(fc.nat({ max: 120 }).map(String), { nil: undefined }),
  body,
});

/** The status the contract reads a body with no SessionError by (docs/contract.md#session-errors, rule 3). */
function plainCode(status: number, route: (typeof routes)[number]): string {
  const mint = route === 'formSession' || route === 'coreFormSession';
  if (status === 401) return 'invalid_api_key';
  if (status === 429) return 'rate_limited';
  if ([502, 503, 504].includes(status)) return 'unavailable';
  if ([414, 431].includes(status) || (mint && [400, 403, 404, 405, 410].includes(status))) {
    return 'invalid_request';
  }
  return 'internal_error';
}

test('any upstream refusal becomes a documented SessionError, and neither it nor a log line holds the key', () => {
  fc.assert(
    fc.property(fc.constantFrom(...routes), answer, (route, upstream) => {
      const logged: string[] = [];
      const log = (message: string, details?: object) => {
        logged.push(message, JSON.stringify(details ?? {}));
      };
      const errors = new UpstreamErrors({
        logger: { warn: log, error: log },
        apiKey,
        maxRetryAfterSeconds: 120,
      });
      const { answer: ours } = errors.refusal(route, upstream);
      const error = (upstream.body as { error?: { code?: unknown } } | undefined)?.error;
      const sent = typeof error === 'object' && error !== null ? error.code : undefined;
      if (typeof sent !== 'string' || sent === '') {
        assert.equal(ours.code, plainCode(upstream.status, route));
      } else if (isKnownSessionErrorCode(sent) && sent !== 'unknown') {
        assert.equal(ours.code, sent);
      } else if (isNewSessionErrorCode(sent) && !errors.holdsKey(sent) && upstream.status >= 400) {
        // A code this release does not know, passed on with the service's error status.
        assert.equal(ours.code, sent);
        assert.equal(ours.status, upstream.status);
      } else {
        assert.equal(ours.code, 'unknown');
      }
      if (isKnownSessionErrorCode(ours.code)) {
        const row = SessionErrorCodes[ours.code];
        assert.equal(ours.status, row.status ?? UNKNOWN_CODE_STATUS);
        assert.equal(ours.retryable, row.retryable);
      }
      assert.ok(ours.status >= 400 && ours.status <= 599, `${ours.status}`);
      // A 429 always carries Retry-After (docs/contract.md#retry-after); otherwise only a retry does.
      if (ours.status === 429) assert.match(ours.retryAfter ?? '', /^\d+$/);
      else if (!ours.retryable) assert.equal(ours.retryAfter, undefined);
      for (const line of [JSON.stringify(ours), ...logged]) {
        const flat = line.replace(/\s|\p{Cc}|\\u00[01][0-9a-f]|\\[nr]/giu, '').toLowerCase();
        for (const form of [apiKey, encodeURIComponent(apiKey)]) {
          assert.ok(!flat.includes(form.toLowerCase()), line);
        }
      }
    }),
    { numRuns: 600 },
  );
});
