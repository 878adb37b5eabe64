import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  canonicalOrigin,
  defaultServicePaths,
  EmbedOriginSchema,
  expandPath,
  isLoopbackHostname,
  isOnEmbedOrigin,
  mintPath,
  OrganisationSchema,
  parseRetryAfter,
  toImfFixdate,
} from '../src/index.js';

test('an embed origin is canonical: lower-case host, no path, no trailing slash, no default port', () => {
  assert.equal(canonicalOrigin('HTTPS://Forms.Example.COM:443/x?y'), 'https://forms.example.com');
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com').success, true);
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com/').success, false);
  assert.equal(EmbedOriginSchema.safeParse('https://forms.example.com:443').success, false);
  assert.equal(canonicalOrigin('javascript:alert(1)'), undefined);
});

test('a timestamp is any string: nothing reads one, so one written unexpectedly fails no list', async () => {
  const { FormSchema } = await import('../src/index.js');
  const form = (updatedAt: unknown) =>
    FormSchema.safeParse({
      id: 'f',
      name: 'F',
      shareUrl: 'https://x.example/f',
      authType: 'none',
      embeddable: true,
      listedOnHomepage: false,
      updatedAt,
    }).success;
  for (const written of ['2026-11-26T10:00:00Z', '2026-11-26t10:00:00z', '2026-11-26T10:00:00']) {
    assert.equal(form(written), true, written);
  }
  assert.equal(form(1764151200), false, 'a number is no timestamp');
});

test("the service's embed origins are read in canonical form: a trailing slash or upper-case host is the same origin, a path is none", () => {
  const read = (formsOrigin: string) => OrganisationSchema.safeParse({ formsOrigin });
  assert.equal(read('https://Forms.Example.com/').data?.formsOrigin, 'https://forms.example.com');
  assert.equal(
    read('https://forms.example.com:443').data?.formsOrigin,
    'https://forms.example.com',
  );
  for (const notAnOrigin of [
    'https://forms.example.com/f',
    'https://forms.example.com/?x',
    'https://user@forms.example.com',
    'forms.example.com',
    'https:forms.example.com',
    'https://forms.example.com/..',
    'https://forms.example.com/%2e',
    ' https://forms.example.com',
  ]) {
    assert.equal(read(notAnOrigin).success, false, notAnOrigin);
  }
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

test('an embed origin not written canonically matches no embedUrl: the frame messages compare it as written', () => {
  for (const embedOrigin of [
    'https://forms.example.com/',
    'HTTPS://forms.example.com',
    'https://forms.example.com:443',
    'https://forms.example.com/f',
  ]) {
    assert.equal(isOnEmbedOrigin('https://forms.example.com/f/1', embedOrigin), false, embedOrigin);
  }
});

test('a missing embed origin (an answer read in JavaScript) matches no embedUrl, not even one that is no URL', () => {
  for (const embedOrigin of [undefined, null, '']) {
    assert.equal(
      isOnEmbedOrigin('/f/1', embedOrigin as unknown as string),
      false,
      String(embedOrigin),
    );
    assert.equal(isOnEmbedOrigin('not a url', embedOrigin as unknown as string), false);
  }
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

describe('parseRetryAfter (docs/contract.md#retry-after)', () => {
  const now = Date.parse('1994-11-06T08:49:07Z');

  test('reads delta-seconds, never negative', () => {
    assert.equal(parseRetryAfter('7'), 7);
    assert.equal(parseRetryAfter(' 5 '), 5);
    assert.equal(parseRetryAfter('0'), 0);
    assert.equal(parseRetryAfter(null), undefined);
  });

  test('reads an IMF-fixdate exactly as RFC 9110 writes it; a past date is 0', () => {
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:49:37 GMT', now), 30);
    assert.equal(parseRetryAfter('Sun, 06 Nov 1994 08:00:00 GMT', now), 0);
  });

  test('reads the two obsolete forms RFC 9110 allows, RFC 850 and asctime, once toImfFixdate rewrote them', () => {
    const read = (header: string) => parseRetryAfter(toImfFixdate(header, now), now);
    assert.equal(read('Sunday, 06-Nov-94 08:49:37 GMT'), 30);
    assert.equal(read('Sun Nov  6 08:49:37 1994'), 30);
    assert.equal(read('Sun, 06 Nov 1994 08:49:37 GMT'), 30, 'an IMF-fixdate is left as it is');
    assert.equal(read(' Sunday, 06-Nov-94 08:49:37 GMT '), 30, 'spaces around the header');
    for (const [header, from, imfFixdate, why] of [
      ['Thursday, 06-Nov-42 08:49:37 GMT', now, 'Thu, 06 Nov 2042 08:49:37 GMT', '48 years ahead'],
      ['Saturday, 01-Jan-00 00:00:30 GMT', '1999-12-31T23:59:00Z', 'Sat, 01 Jan 2000', 'ahead'],
      ['Tuesday, 06-Nov-40 08:49:37 GMT', '2000-01-01T00:00:00Z', 'Tue, 06 Nov 2040', 'ahead'],
      ['Saturday, 06-Nov-60 08:49:37 GMT', '2000-01-01T00:00:00Z', 'Sat, 06 Nov 1960', 'before'],
      // Exactly 50 years ahead is not more than 50: the year stays ahead, in either century.
      ['Friday, 06-Nov-76 08:49:37 GMT', '2026-01-01T00:00:00Z', 'Fri, 06 Nov 2076', '50 ahead'],
      ['Wednesday, 06-Nov-20 08:49:37 GMT', '2070-06-01T00:00:00Z', 'Wed, 06 Nov 2120', '50 ahead'],
    ] as const) {
      // A two-digit year is the one at most 50 years ahead, else the century before.
      const at = typeof from === 'number' ? from : Date.parse(from);
      assert.ok(toImfFixdate(header, at).startsWith(imfFixdate), `${header}: ${why}`);
    }
    for (const malformed of ['Sunday, 6-Nov-94 08:49:37 GMT', 'Sun Nov 6 08:49:37 1994', 'x 5']) {
      assert.equal(read(malformed), undefined, malformed);
    }
  });

  test('anything else is absent: lenient date text, fractions, signs, impossible times, too many digits', () => {
    for (const unreadable of [
      '',
      '   ',
      'soon',
      'x 5',
      'May 5',
      '1.5',
      '-5',
      '+5',
      '1/2',
      '1e3',
      '9'.repeat(400),
      'Sun, 06 Nov 1994 25:61:99 GMT',
      'Sun, 06 Nov 1994 08:49:37 UTC',
      'Mon, 06 Nov 1994 08:49:37 GMT',
      'Sun, 6 Nov 1994 08:49:37 GMT',
      'Sunday, 06-Nov-94 08:49:37 GMT',
      'sun, 06 nov 1994 08:49:37 gmt',
      '2026-11-21T10:00:30Z',
      'Sun Nov  6 08:49:37 1994 GMT',
    ]) {
      assert.equal(parseRetryAfter(unreadable, now), undefined, JSON.stringify(unreadable));
    }
  });
});

test('this machine, as a browser reads a hostname: localhost and names under it, 127.0.0.0/8, [::1]; nothing that only looks like them', () => {
  for (const hostname of ['localhost', 'app.localhost', '127.0.0.1', '127.8.9.10', '[::1]']) {
    assert.equal(isLoopbackHostname(hostname), true, hostname);
  }
  for (const hostname of ['localhost.example', '127.0.0.1.example', '128.0.0.1', '[::2]', '::1']) {
    assert.equal(isLoopbackHostname(hostname), false, hostname);
  }
});
