import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import {
  isKnownSessionErrorCode,
  isPortalErrorCode,
  MintResponseSchema,
  PortalErrorCodes,
  SessionErrorBodySchema,
  SessionErrorCodes,
} from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import fc from 'fast-check';
import { z } from 'zod';
import { type MountedMiddleware, mountMiddleware, portalUsers } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const MOUNT = '/form-sessions';
const plenty = { perMinute: 1_000_000, burst: 1_000_000 };

before(async () => {
  sandbox = await startSandbox({ limits: { mints: plenty, reads: plenty } });
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1_000_000 },
  });
});

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

const CatalogueSchema = z.object({
  forms: z.array(z.object({ kind: z.enum(['form', 'coreForm']) })),
});

const anyId = fc.oneof(
  fc.constantFrom(
    ...Object.values(fixtureIds.forms),
    ...Object.values(fixtureIds.coreForms),
    '%',
    '%zz',
    '..',
    '%2F..%2Fapi%2Fv1%2Fme',
    '%00',
    'a'.repeat(3000),
    '.',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.string({ maxLength: 20 }).filter((s) => !/[?#\\]/.test(s)),
);

const anyPath = fc.oneof(
  { arbitrary: anyId.map((id) => `/forms/${id}/session`), weight: 3 },
  { arbitrary: anyId.map((id) => `/core-forms/${id}/session`), weight: 3 },
  fc.constantFrom('/forms', '/forms/', '/core-forms', '/', '', '/session', '/forms/x', '/FORMS'),
  fc.array(anyId, { maxLength: 4 }).map((segments) => `/${segments.join('/')}`),
  fc
    .tuple(anyId, fc.string({ maxLength: 20 }))
    .map(([id, q]) => `/forms/${id}/session?${encodeURIComponent(q)}=1`),
);

const headerValue = fc.string({ maxLength: 30 }).map((s) => s.replace(/[^\x20-\x7e]/g, '').trim());
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

const anyHeaders = fc.record({
  'content-type': maybe(
    fc.oneof(
      { arbitrary: fc.constant('application/json'), weight: 4 },
      fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'application/json; charset=latin1',
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonx',
        ';;',
      ),
      headerValue,
    ),
  ),
  'sec-fetch-site': maybe(
    fc.oneof(
      { arbitrary: fc.constant('same-origin'), weight: 4 },
      fc.constantFrom('cross-site', 'same-site', 'none', 'CROSS-SITE'),
      headerValue,
    ),
  ),
  origin: maybe(
    fc.oneof(fc.constantFrom('null', 'https://evil.example', 'http://127.0.0.1'), headerValue),
  ),
  'x-portal-session': maybe(fc.constantFrom('adele', 'megan', 'alex', 'nobody', '')),
  'content-encoding': fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 6 },
    fc.constantFrom('gzip', 'br', 'identity', 'x-unknown'),
  ),
  'x-forwarded-for': maybe(headerValue),
  'x-forwarded-host': maybe(headerValue),
});

const anyBody = fc.oneof(
  fc.json(),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', 'null', '[]', '"user"', '{"user":{"clientId":"client_fabrikam"}}'),
  fc
    .record({
      user: fc.record({
        clientId: fc.oneof(fc.constantFrom(...Object.values(fixtureIds.clients)), fc.string()),
        userIdentifier: fc.oneof(fc.constantFrom(...Object.values(fixtureIds.users)), fc.string()),
        microsoftTenantId: fc.oneof(
          fc.constantFrom(...Object.values(fixtureIds.tenants)),
          fc.string(),
        ),
      }),
    })
    .map((body) => JSON.stringify(body)),
  fc.nat({ max: 30_000 }).map((size) => JSON.stringify({ pad: 'x'.repeat(size) })),
);

const anyRequest = fc.record({
  method: fc.constantFrom(
    'GET',
    ...Array(6).fill('POST'),
    'PUT',
    'DELETE',
    'PATCH',
    'OPTIONS',
    'HEAD',
  ),
  path: anyPath,
  headers: anyHeaders,
  body: anyBody,
});

test('1,000 malformed requests (paths, bodies, headers) get no 5xx, only documented answers, and never send a browser-chosen user upstream nor a mint to another endpoint', async () => {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(anyRequest, async ({ method, path, headers, body }) => {
      // Only what reaches the mount path is the middleware's (a `..` may climb out of it).
      const { pathname } = new URL(`${portal.server.endpoint}${path}`);
      fc.pre(pathname === MOUNT || pathname.startsWith(`${MOUNT}/`));
      const upstreamBefore = portal.upstream.length;
      const withBody = method !== 'GET' && method !== 'HEAD';
      const answer = await portal.request(path, {
        method,
        // Every generated header is present, `undefined` ones replace the harness defaults.
        headers,
        ...(withBody ? { body } : {}),
      });
      assert.ok(answer.status < 500, `${answer.status} ${answer.text}`);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.equal(answer.headers.get('x-ratelimit-remaining'), null);
      if (method === 'HEAD') return;
      if (answer.status === 200) {
        const catalogue = /^\/forms\/?$/i.test(pathname.slice(MOUNT.length));
        const shape = catalogue ? CatalogueSchema : MintResponseSchema;
        shape.parse(answer.body);
        seen.set('200', (seen.get('200') ?? 0) + 1);
      } else {
        const { error } = SessionErrorBodySchema.parse(answer.body);
        const table = { ...SessionErrorCodes, ...PortalErrorCodes };
        assert.ok(isKnownSessionErrorCode(error.code) || isPortalErrorCode(error.code), error.code);
        assert.equal(answer.status, table[error.code as keyof typeof table].status, error.code);
        seen.set(error.code, (seen.get(error.code) ?? 0) + 1);
      }
      const session = headers['x-portal-session'];
      const user = session === undefined ? undefined : portalUsers[session];
      for (const call of portal.upstream.slice(upstreamBefore)) {
        if (call.method !== 'POST') continue;
        assert.deepEqual(call.body, user === undefined ? {} : { user });
        assert.match(new URL(call.url).pathname, /^\/api\/v1\/(core\/)?forms\/[^/]+\/session$/);
      }
    }),
    { numRuns: 1_000 },
  );
  // The run explored refusals before the service as well as answers from it.
  for (const code of ['invalid_request', 'forbidden', 'not_found']) {
    assert.ok((seen.get(code) ?? 0) > 0, `no ${code} among ${JSON.stringify([...seen])}`);
  }
});
