import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  defaultServicePaths,
  EmbedOriginSchema,
  expandPath,
  FORM_REF_MAX_LENGTH,
  isValidFormRef,
  mintPath,
  OrganisationSchema,
  originOf,
} from '../src/index.js';

// Not xn--: such a label is Punycode, which the URL parser decodes, and refuses when it is none
// (http://xn--a.example is no URL), so it is not "a host written in any case".
const label = fc
  .stringMatching(/^[a-zA-Z0-9]([a-zA-Z0-9-]{0,8}[a-zA-Z0-9])?$/)
  .filter((text) => !/^xn--/i.test(text));
const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));
const scheme = fc.constantFrom('http', 'https');
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const randomCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));

/** An origin as a service might write it, and its canonical form (docs/contract.md, rule 1). */
const writtenOrigin = fc
  .record({ scheme, host: host.map((name) => `${name}.example`), port, slash: fc.boolean() })
  .chain(({ scheme, host, port, slash }) => {
    const defaultPort = scheme === 'https' ? 443 : 80;
    const canonical = `${scheme}://${host.toLowerCase()}${port === undefined || port === defaultPort ? '' : `:${port}`}`;
    return fc
      .tuple(randomCase(`${scheme}://${host}`), fc.boolean())
      .map(([start, explicitDefault]) => ({
        written: `${start}${port !== undefined ? `:${port}` : explicitDefault ? `:${defaultPort}` : ''}${slash ? '/' : ''}`,
        canonical,
      }));
  });

test('an origin written with any case, a default port or a trailing slash reads as its canonical form', () => {
  fc.assert(
    fc.property(writtenOrigin, ({ written, canonical }) => {
      assert.equal(originOf(written), canonical);
      assert.equal(OrganisationSchema.parse({ formsOrigin: written }).formsOrigin, canonical);
      assert.equal(EmbedOriginSchema.safeParse(canonical).success, true);
    }),
    { numRuns: 300 },
  );
});

test('an origin with a path, query, fragment or credentials is no origin', () => {
  const more = fc.oneof(
    fc.stringMatching(/^\/[^\s]+$/).filter((path) => path !== '/'),
    fc.string().map((text) => `?${text}`),
    fc.string().map((text) => `#${text}`),
    fc
      .string()
      .map((text) => `/${text}`)
      .filter((path) => path !== '/'),
  );
  fc.assert(
    fc.property(writtenOrigin, more, fc.string(), ({ written }, tail, user) => {
      const bare = written.replace(/\/$/, '');
      assert.equal(originOf(`${bare}${tail}`), undefined, `${bare}${tail}`);
      const [start = '', rest = ''] = bare.split('://');
      assert.equal(originOf(`${start}://${user}@${rest}`), undefined);
    }),
    { numRuns: 300 },
  );
});

test('whatever is read as an origin is canonical, and reads as itself', () => {
  const originish = fc.oneof(
    fc.string().map((text) => `https://${text}`),
    fc.string({ unit: 'binary' }).map((text) => `http://${text}`),
    fc.string(),
    writtenOrigin.map(({ written }) => written),
  );
  fc.assert(
    fc.property(originish, (value) => {
      const origin = originOf(value);
      if (origin === undefined) return;
      assert.equal(EmbedOriginSchema.safeParse(origin).success, true, origin);
      assert.equal(originOf(origin), origin);
      assert.equal(new URL(origin).pathname, '/');
    }),
    { numRuns: 500 },
  );
});

/** True when the URL parser keeps `value`, encoded, as one segment of a service path (not empty). */
function keptAsOneSegment(value: string): boolean {
  if (value === '') return false;
  const path = `/api/v1/forms/${encodeURIComponent(value)}/session`;
  return new URL(path, 'https://service.example').pathname === path;
}

const formRef = fc.oneof(
  fc.constantFrom('', '.', '..', '...', '%2e', '.%2e', '%2e%2e', 'new-starter'),
  fc.string({ unit: fc.constantFrom('.', '%', '2', 'e', 'E', '/', '\\', 'a') }),
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ minLength: FORM_REF_MAX_LENGTH - 1, maxLength: FORM_REF_MAX_LENGTH + 1 }),
  fc.string({ unit: 'grapheme', minLength: 190, maxLength: 220 }),
);

test('a form ref is refused exactly when it is too long or the URL parser would not keep it as its segment', () => {
  fc.assert(
    fc.property(formRef, (value) => {
      const fits = value.length <= FORM_REF_MAX_LENGTH;
      assert.equal(isValidFormRef(value), fits && keptAsOneSegment(value), JSON.stringify(value));
      if (!isValidFormRef(value)) return;
      const path = expandPath(defaultServicePaths.formSession, { formId: value });
      assert.equal(new URL(path, 'https://service.example').pathname, path);
      const mint = mintPath({ kind: 'coreForm', slug: value });
      assert.equal(new URL(mint, 'https://portal.example').pathname, mint);
    }),
    { numRuns: 500 },
  );
});

test('originOf refuses what a URL parser would forgive: a tab inside the host, slashes after it', () => {
  for (const written of ['https://x.exa\tmple', 'https://x.example\n', 'https://x.example//']) {
    assert.equal(originOf(written), undefined, JSON.stringify(written));
  }
  assert.equal(originOf('https://x.example/'), 'https://x.example');
});
