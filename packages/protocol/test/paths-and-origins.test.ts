import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canonicalOrigin,
  defaultServicePaths,
  EmbedOriginSchema,
  expandPath,
  isOnEmbedOrigin,
  mintPath,
  parseRetryAfter,
} from '../src/index.js';

test('an embed origin is canonical: lower-case host, no path, no trailing slash, no default port', () => {
  assert.equal(canonicalOrigin('HTTPS://Forms.Example.COM:443/x?y'), 'https://forms.example.com');
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com').success, true);
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com/').success, false);
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com:443').success, false);
  assert.equal(canonicalOrigin('javascript:alert(1)'), undefined);
});

test('an embedUrl counts as on the embed origin only when its origin is exactly that origin', () => {
  assert.equal(
    isOnEmbedOrigin('https://forms.example.com/f/1?h=x', 'https://forms.example.com'),
    true,
  );
  assert.equal(
    isOnEmbedOrigin('https://forms.example.com.evil.test/f', 'https://forms.example.com'),
    false,
  );
  assert.equal(
    isOnEmbedOrigin('https://forms.example.com@evil.test/f', 'https://forms.example.com'),
    false,
  );
  assert.equal(isOnEmbedOrigin('/f/1', 'https://forms.example.com'), false);
});

test('path templates encode each value', () => {
  assert.equal(
    expandPath(defaultServicePaths.coreFormSession, { slug: 'a/b' }),
    '/api/v1/core/forms/a%2Fb/session',
  );
  assert.throws(() => expandPath(defaultServicePaths.formSession), /formId/);
  for (const value of ['', '.', '..']) {
    assert.throws(
      () => expandPath(defaultServicePaths.formSession, { formId: value }),
      /path segment/,
    );
  }
  assert.equal(
    expandPath(defaultServicePaths.formSession, { formId: '...' }),
    '/api/v1/forms/.../session',
  );
  assert.equal(mintPath({ kind: 'form', formId: '../x' }), '/forms/..%2Fx/session');
  assert.equal(
    mintPath({ kind: 'coreForm', slug: 'new-starter' }),
    '/core-forms/new-starter/session',
  );
});

test('Retry-After reads delta-seconds and HTTP-dates, never negative', () => {
  assert.equal(parseRetryAfter('7'), 7);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  assert.equal(parseRetryAfter(' 5 '), 5);
  assert.equal(parseRetryAfter('0'), 0);
  for (const unreadable of ['', '   ', '1.5', '-5', '1/2', '9'.repeat(400)]) {
    assert.equal(parseRetryAfter(unreadable), undefined, JSON.stringify(unreadable));
  }
  const now = Date.parse('2026-11-21T10:00:00Z');
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 10:00:30 GMT', now), 30);
  assert.equal(parseRetryAfter('Sat, 21 Nov 2026 09:00:00 GMT', now), 0);
});
