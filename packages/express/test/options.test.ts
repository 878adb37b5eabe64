import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type FormEmbedSessionsOptions, formEmbedSessions } from '@form-embed/express';
import {
  defaultServicePaths,
  MintResponseSchema,
  mintPath,
  SessionErrorBodySchema,
} from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { parseOptions } from '../src/parse-options.js';
import { createServer } from './helpers/create-server.js';
import { mountMiddleware, PORTAL_SESSION_HEADER, resolvePortalUser } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { selfSignedCertificate } from './helpers/tls-proxy.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

const valid = (): FormEmbedSessionsOptions => ({
  apiKey: sandbox.apiKey,
  baseUrl: sandbox.baseUrl,
  resolveUser: resolvePortalUser,
});

const badOptions: Array<[string, (options: FormEmbedSessionsOptions) => unknown, RegExp]> = [
  ['no apiKey', ({ apiKey: _, ...rest }) => rest, /option `apiKey` is required/],
  ['a blank apiKey', (o) => ({ ...o, apiKey: '   ' }), /option `apiKey` must not be empty/],
  ['no baseUrl', ({ baseUrl: _, ...rest }) => rest, /option `baseUrl` is required.*startSandbox/],
  [
    'a relative baseUrl',
    (o) => ({ ...o, baseUrl: '/api' }),
    /option `baseUrl` must be an absolute http\(s\) URL/,
  ],
  ['an ftp baseUrl', (o) => ({ ...o, baseUrl: 'ftp://files.example' }), /option `baseUrl`/],
  [
    'a baseUrl with a query',
    (o) => ({ ...o, baseUrl: 'https://api.example.com?region=eu' }),
    /option `baseUrl` must have no query or fragment/,
  ],
  [
    'a baseUrl with a fragment',
    (o) => ({ ...o, baseUrl: 'https://api.example.com/#eu' }),
    /option `baseUrl` must have no query or fragment/,
  ],
  [
    'no resolveUser',
    ({ resolveUser: _, ...rest }) => rest,
    /option `resolveUser` must be a function/,
  ],
  ['an authorize that is not a function', (o) => ({ ...o, authorize: true }), /option `authorize`/],
  [
    'a path without a leading slash',
    (o) => ({ ...o, paths: { me: 'api/v1/me' } }),
    /option `paths\.me`/,
  ],
  ['an unknown path name', (o) => ({ ...o, paths: { mee: '/x' } }), /unknown option `paths\.mee`/],
  [
    'a path of the service the middleware never calls',
    (o) => ({ ...o, paths: { openapi: '/openapi.json' } }),
    /unknown option `paths\.openapi`/,
  ],
  [
    'an apiKey with a space inside',
    (o) => ({ ...o, apiKey: 'key with-space' }),
    /option `apiKey` must not hold spaces or line breaks/,
  ],
  ['a zero timeoutMs', (o) => ({ ...o, timeoutMs: 0 }), /option `timeoutMs`/],
  // Node runs a longer timer after 1 ms: the window would end, or the request time out, at once.
  [
    'a timeoutMs past the longest timer',
    (o) => ({ ...o, timeoutMs: 2 ** 31 }),
    /option `timeoutMs` must be at most 2147483647/,
  ],
  [
    'a window past the longest timer',
    (o) => ({ ...o, limit: { windowMs: 2 ** 31 } }),
    /option `limit\.windowMs` must be at most 2147483647/,
  ],
  [
    'a store timeout past the longest timer',
    (o) => ({ ...o, limit: { storeTimeoutMs: 2 ** 31 } }),
    /option `limit\.storeTimeoutMs` must be at most 2147483647/,
  ],
  ['a fractional timeoutMs', (o) => ({ ...o, timeoutMs: 1.5 }), /option `timeoutMs`/],
  ['a zero mint limit', (o) => ({ ...o, limit: { mints: 0 } }), /option `limit\.mints`/],
  [
    'a window under a second',
    (o) => ({ ...o, limit: { windowMs: 10 } }),
    /option `limit\.windowMs`/,
  ],
  ['a store that is not a Store', (o) => ({ ...o, limit: { store: {} } }), /option `limit\.store`/],
  [
    'a signed-out mint limit that is not a whole number',
    (o) => ({ ...o, limit: { signedOutMints: 2.5 } }),
    /option `limit\.signedOutMints` must be a whole number of mints/,
  ],
  [
    'a zero catalogue limit',
    (o) => ({ ...o, limit: { catalogue: 0 } }),
    /option `limit\.catalogue`/,
  ],
  [
    'a prefix that is not a string',
    (o) => ({ ...o, limit: { prefix: 1 } }),
    /option `limit\.prefix`/,
  ],
  [
    'a store timeout of 0',
    (o) => ({ ...o, limit: { storeTimeoutMs: 0 } }),
    /option `limit\.storeTimeoutMs`/,
  ],
  [
    'a passOnStoreError that is not a boolean',
    (o) => ({ ...o, limit: { passOnStoreError: 'no' } }),
    /option `limit\.passOnStoreError`/,
  ],
  ['a logger without warn and error', (o) => ({ ...o, logger: console.log }), /option `logger`/],
  ['a fetch that is not a function', (o) => ({ ...o, fetch: 'fetch' }), /option `fetch`/],
  ['a misspelt option', (o) => ({ ...o, apikey: 'x' }), /unknown option `apikey`/],
  [
    "a misspelt limit (the README's example)",
    (o) => ({ ...o, limit: { mint: 3 } }),
    /unknown option `limit\.mint`/,
  ],
  [
    'a body cap under 1 KiB',
    (o) => ({ ...o, maxUpstreamBodyBytes: 10 }),
    /option `maxUpstreamBodyBytes` must be at least 1024/,
  ],
  [
    'a fractional Retry-After cap',
    (o) => ({ ...o, maxRetryAfterSeconds: 1.5 }),
    /option `maxRetryAfterSeconds` must be a whole number/,
  ],
  [
    'an allowed origin with a path',
    (o) => ({ ...o, allowedOrigins: ['https://portal.example/app'] }),
    /option `allowedOrigins\.0` must hold origins/,
  ],
  [
    'allowed origins that are not an array',
    (o) => ({ ...o, allowedOrigins: 'https://a.example' }),
    /option `allowedOrigins`/,
  ],
  [
    'the null origin allowed',
    (o) => ({ ...o, allowedOrigins: ['null'] }),
    /option `allowedOrigins\.0`/,
  ],
  [
    'a negative catalogue cache',
    (o) => ({ ...o, catalogue: { cacheTtlMs: -1 } }),
    /option `catalogue\.cacheTtlMs`/,
  ],
  [
    'a signed-out catalogue that is not a boolean',
    (o) => ({ ...o, catalogue: { signedOut: 'yes' } }),
    /option `catalogue\.signedOut` must be true or false/,
  ],
];

// The service's paths the middleware calls: it never reads one Core form, nor the OpenAPI file.
const { coreForm: _coreForm, openapi: _openapi, ...calledPaths } = defaultServicePaths;

describe('formEmbedSessions options', () => {
  for (const [what, change, message] of badOptions) {
    test(`bad options throw at construction, naming the option: ${what}`, () => {
      const options = change(valid()) as FormEmbedSessionsOptions;
      assert.throws(
        () => formEmbedSessions(options),
        (error: unknown) => {
          assert.ok(error instanceof TypeError);
          assert.match(error.message, message);
          assert.ok(
            !error.message.includes(sandbox.apiKey),
            'the message names the option, not the key',
          );
          watch.texts.push(error.message);
          return true;
        },
      );
    });
  }

  test('options that are not an object throw, saying what to pass', () => {
    for (const options of [undefined, null, 'key', []]) {
      assert.throws(
        () => formEmbedSessions(options as never),
        (error: Error) =>
          error.message ===
          'formEmbedSessions: pass an options object, `{apiKey, baseUrl, resolveUser}` at least',
      );
    }
  });

  test('parseOptions fills every default', () => {
    const config = parseOptions(valid());
    assert.equal(config.timeoutMs, 10_000);
    assert.deepEqual(config.limit, {
      mints: 30,
      catalogue: 30,
      signedOutMints: 60,
      windowMs: 60_000,
      store: undefined,
      prefix: undefined,
      storeTimeoutMs: 250,
      passOnStoreError: true,
    });
    assert.deepEqual(config.paths, calledPaths);
    assert.equal(config.baseUrl, sandbox.baseUrl);
    assert.equal(
      parseOptions({ ...valid(), baseUrl: `${sandbox.baseUrl}/` }).baseUrl,
      sandbox.baseUrl,
    );
    // As an .env file may hold it: the space went into every request's URL.
    assert.equal(
      parseOptions({ ...valid(), baseUrl: ` ${sandbox.baseUrl}/ \n` }).baseUrl,
      sandbox.baseUrl,
    );
    assert.equal(config.authorize({} as never, microsoftForm), true);
    assert.equal(config.maxUpstreamBodyBytes, 1_048_576);
    assert.equal(config.maxRetryAfterSeconds, 120);
    assert.deepEqual([...config.allowedOrigins], []);
    assert.deepEqual(config.catalogue, { signedOut: false, cacheTtlMs: 30_000 });
    assert.deepEqual(
      [
        ...parseOptions({ ...valid(), allowedOrigins: ['HTTPS://Portal.Example:443/'] })
          .allowedOrigins,
      ],
      ['https://portal.example'],
      'allowed origins are kept canonical',
    );
  });

  function deepFreeze<T>(value: T): T {
    if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
      Object.freeze(value);
      for (const inner of Object.values(value)) deepFreeze(inner);
    }
    return value;
  }

  test('a deep-frozen options object works and is never mutated', async () => {
    const options = deepFreeze({
      ...valid(),
      authorize: () => true,
      paths: { me: defaultServicePaths.me },
      timeoutMs: 5_000,
      limit: { mints: 3, windowMs: 30_000 },
      logger: watch.logger,
    });
    const snapshot = JSON.stringify(options);
    const keys = Reflect.ownKeys(options);
    // Closed before the options are looked at again.
    {
      await using server = await createServer(formEmbedSessions(options));
      const response = await fetch(`${server.endpoint}${mintPath(microsoftForm)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PORTAL_SESSION_HEADER]: 'adele' },
        body: '{}',
      });
      const text = await response.text();
      watch.record(response, text);
      assert.equal(response.status, 200, text);
      MintResponseSchema.parse(JSON.parse(text));
    }
    assert.equal(JSON.stringify(options), snapshot);
    assert.deepEqual(Reflect.ownKeys(options), keys);
  });

  test('paths reach the upstream: a formSession path the service does not have is invalid_request, not retried, naming the option in the log', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      paths: { formSession: '/api/v1/designer-forms/{formId}/sessions' },
    });
    const logsBefore = watch.logLines.length;
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 400);
    assert.deepEqual(
      [SessionErrorBodySchema.parse(answer.body).error.code, answer.headers.get('retry-after')],
      ['invalid_request', null],
    );
    assert.equal(SessionErrorBodySchema.parse(answer.body).error.retryable, false);
    assert.ok(
      watch.logLines.slice(logsBefore).some((line) => line.message.includes('paths.formSession')),
    );
    assert.ok(
      portal.upstream.some((call) =>
        call.url.includes('/api/v1/designer-forms/form_microsoft/sessions'),
      ),
    );
  });

  test('every paths entry is the path asked for: a service that serves each endpoint elsewhere mints both kinds and lists the menu, by clientId and by tenant', async () => {
    // The service of this test serves every endpoint under /moved only, as a real service may
    // place the ones the contract leaves unshown elsewhere (Pointing it at the real service).
    const moved = Object.fromEntries(
      Object.entries(calledPaths).map(([name, path]) => [name, `/moved${path}`]),
    );
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      paths: moved,
      fetch: (input, init) => {
        const url = new URL(String(input));
        if (!url.pathname.startsWith('/moved/')) {
          return Promise.resolve(
            Response.json(
              { error: { code: 'not_found', message: 'no such path', retryable: false } },
              { status: 404 },
            ),
          );
        }
        url.pathname = url.pathname.slice('/moved'.length);
        return fetch(url, init);
      },
    });
    const designer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(designer.status, 200, designer.text);
    const core = await portal.mint(
      { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter },
      { session: 'adele' },
    );
    assert.equal(core.status, 200, core.text);
    for (const session of ['adele', 'adeleByTenant']) {
      const menu = await portal.request('/forms', { session });
      assert.equal(menu.status, 200, menu.text);
      const kinds = (menu.body as { forms: { kind: string }[] }).forms.map((form) => form.kind);
      assert.ok(kinds.includes('form') && kinds.includes('coreForm'), `${session}: ${kinds}`);
    }
    const asked = portal.upstream.map((call) => new URL(call.url).pathname);
    assert.ok(
      asked.every((path) => path.startsWith('/moved/')),
      `every request on its configured path: ${asked.join(', ')}`,
    );
    // Each entry was asked for at least once (client and clients by their own paths).
    for (const template of Object.values(moved)) {
      const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`);
      assert.ok(
        asked.some((path) => pattern.test(path)),
        `${pattern} among ${asked.join(', ')}`,
      );
    }
  });

  test('an apiKey read with its line break is sent, and cut out of log lines, without it', async () => {
    const echoed: string[] = [];
    await using portal = await mountMiddleware(watch, {
      apiKey: `${sandbox.apiKey}\n`,
      baseUrl: sandbox.baseUrl,
      logger: {
        warn: (message, details) => echoed.push(message, JSON.stringify(details)),
        error: (message, details) => echoed.push(message, JSON.stringify(details)),
      },
      // Every upstream request comes back naming the key it carried, as an echoing proxy would.
      fetch: async (_input, init) =>
        new Response(
          JSON.stringify({
            error: {
              code: 'user_not_found',
              message: `received ${new Headers(init?.headers).get('authorization')}`,
              retryable: false,
            },
          }),
          { status: 404, headers: { 'content-type': 'application/json' } },
        ),
    });
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 404);
    const logged = echoed.join('\n');
    assert.match(logged, /received Bearer /, 'the service said which key it received');
    assert.ok(!logged.includes(sandbox.apiKey), 'the key it received is cut out');
  });

  test('a wrong baseUrl is logged with the URL asked: an extra /api/v1, an unreachable port (ECONNREFUSED), a port fetch refuses', async () => {
    // From the start: the GET /me sent when the middleware is created logs it first, and the
    // mint's own try, the same line within a minute, is left out.
    const logsBefore = watch.logLines.length;
    await using doubled = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: `${sandbox.baseUrl}/api/v1`,
    });
    // A port nothing listens on any more.
    const gone = await createServer(formEmbedSessions(valid()));
    const deadUrl = new URL(gone.endpoint).origin;
    await gone.close();
    await using closedPort = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: deadUrl,
    });
    // A port fetch refuses to use: its cause has no code, only a message.
    await using badPort = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: 'http://127.0.0.1:1',
    });
    assert.equal((await doubled.mint(microsoftForm, { session: 'adele' })).status, 500);
    assert.equal((await closedPort.mint(microsoftForm, { session: 'adele' })).status, 503);
    assert.equal((await badPort.mint(microsoftForm, { session: 'adele' })).status, 503);
    const logged = JSON.stringify(watch.logLines.slice(logsBefore));
    assert.match(logged, /GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/api\/v1\/me/);
    assert.match(logged, /without \/api\/v1/);
    assert.ok(logged.includes(`GET ${deadUrl}/api/v1/me`), logged);
    assert.match(logged, /ECONNREFUSED/);
    assert.match(logged, /fetch failed \(bad port\)/);
  });

  test('a service certificate this Node does not trust (self-signed, as a proxy that inspects TLS serves) is logged as such, with NODE_EXTRA_CA_CERTS; the mint is unavailable', async (t) => {
    const dir = await mkdtemp(join(tmpdir(), 'form-embed-certificate-'));
    t.after(() => rm(dir, { recursive: true, force: true }));
    const [certificate, key] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
    await selfSignedCertificate(certificate, key);
    const service = createHttpsServer(
      { cert: await readFile(certificate), key: await readFile(key) },
      (_req, res) => res.end('{}'),
    );
    service.listen(0, '127.0.0.1');
    await once(service, 'listening');
    t.after(() => service.close());
    const { port } = service.address() as AddressInfo;
    const logsBefore = watch.logLines.length;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: `https://127.0.0.1:${port}`,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
    const [line] = watch.logLines.slice(logsBefore);
    assert.match(
      line?.message ?? '',
      /^the service's TLS certificate was refused for GET me: .*NODE_EXTRA_CA_CERTS/,
    );
    assert.match(String(line?.details?.reason), /SELF_SIGNED/);
  });

  test("a service certificate whose issuer this Node cannot verify (a private CA's, without its chain) is logged as refused, with NODE_EXTRA_CA_CERTS", async () => {
    // Node's code for a certificate signed by a CA it does not have: no CERT in its name.
    const unverifiable = async () => {
      const cause = Object.assign(new Error('unable to verify the first certificate'), {
        code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
      });
      throw new TypeError('fetch failed', { cause });
    };
    const logsBefore = watch.logLines.length;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: 'https://service.example',
      fetch: unverifiable,
    });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
    const [line] = watch.logLines.slice(logsBefore);
    assert.match(
      line?.message ?? '',
      /^the service's TLS certificate was refused for GET me: .*NODE_EXTRA_CA_CERTS/,
    );
    assert.equal(line?.details?.reason, 'TypeError: UNABLE_TO_VERIFY_LEAF_SIGNATURE');
  });

  test('plain http off this machine is warned of at construction, once per option: a baseUrl (the API key crosses the network in the clear) and an allowed origin (its page can be changed on the way)', () => {
    const warned: string[] = [];
    const logger = { warn: (message: string) => warned.push(message), error: () => {} };
    const fetch = async () => new Response('{}', { status: 503 });
    formEmbedSessions({
      ...valid(),
      baseUrl: 'http://api.example.com',
      allowedOrigins: [
        'http://portal.example',
        'https://other.example',
        'http://localhost:3000',
        'http://app.localhost',
        'http://127.0.0.2:8080',
        'http://[::1]:4000',
        // Names that only begin or end like this machine's are another machine's.
        'http://notlocalhost',
        'http://localhost.attacker.example',
        'http://127.0.0.1.nip.io',
      ],
      logger,
      fetch,
    });
    assert.equal(warned.length, 5, warned.join('\n'));
    assert.match(warned[0] ?? '', /baseUrl http:\/\/api\.example\.com is plain http.*API key/);
    assert.match(warned[1] ?? '', /allowedOrigins lists http:\/\/portal\.example, plain http/);
    assert.match(warned[2] ?? '', /lists http:\/\/notlocalhost,/);
    assert.match(warned[3] ?? '', /lists http:\/\/localhost\.attacker\.example,/);
    assert.match(warned[4] ?? '', /lists http:\/\/127\.0\.0\.1\.nip\.io,/);
    assert.ok(!warned.join('\n').includes(sandbox.apiKey));
    warned.length = 0;
    formEmbedSessions({ ...valid(), allowedOrigins: ['https://other.example'], logger, fetch });
    assert.deepEqual(warned, [], 'https, and http to this machine, are not warned of');
    // A browser takes a name under localhost for this machine; Node asks DNS for it, which may
    // answer another machine's address.
    formEmbedSessions({ ...valid(), baseUrl: 'http://api.localhost:4010', logger, fetch });
    assert.equal(warned.length, 1, warned.join('\n'));
    assert.match(warned[0] ?? '', /baseUrl http:\/\/api\.localhost:4010 is plain http/);
  });

  test('a baseUrl with a path prefix keeps the prefix', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: `${sandbox.baseUrl}/prefix/`,
    });
    await portal.mint(microsoftForm, { session: 'adele' });
    assert.ok(portal.upstream.length > 0);
    assert.ok(
      portal.upstream.every((call) => call.url.startsWith(`${sandbox.baseUrl}/prefix/api/v1/`)),
    );
  });
});
