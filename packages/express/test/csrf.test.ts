import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import cors from 'cors';
import {
  type Answer,
  type MountedMiddleware,
  mintPathOfOpenForm,
  mountMiddleware,
  openForm,
  PORTAL_SESSION_HEADER,
  withoutUpstream,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const ALLOWED_ORIGIN = 'https://app.portal.example';

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1000 },
    allowedOrigins: [ALLOWED_ORIGIN],
  });
});

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

function assertRefused(answer: Answer, code: string, status: number) {
  assert.equal(answer.status, status, answer.text);
  const { error } = SessionErrorBodySchema.parse(answer.body);
  assert.equal(error.code, code);
  assert.equal(error.retryable, false);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

/**
 * A mint request written by hand: `fetch` and `http.request` always send a Host. Without
 * `hostLine`, an HTTP/1.0 request with no Host at all; with it, HTTP/1.1 with that line.
 */
async function postWithHostLine(
  hostLine: string | undefined,
  origin: string,
): Promise<{ status: number; text: string }> {
  const endpoint = new URL(portal.server.endpoint);
  const body = '{}';
  const head = [
    `POST ${endpoint.pathname}${mintPathOfOpenForm} HTTP/${hostLine === undefined ? '1.0' : '1.1'}`,
    ...(hostLine === undefined ? [] : [hostLine]),
    `Origin: ${origin}`,
    'Content-Type: application/json',
    `${PORTAL_SESSION_HEADER}: adele`,
    `Content-Length: ${body.length}`,
    'Connection: close',
  ];
  const socket = connect(Number(endpoint.port), endpoint.hostname);
  // Written, not ended: a client that half-closes may find its connection closed unanswered.
  socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  let raw = '';
  socket.setEncoding('utf8');
  for await (const chunk of socket) raw += chunk;
  const [statusLine = '', ...rest] = raw.split('\r\n');
  return {
    status: Number(statusLine.split(' ')[1]),
    text: rest.join('\r\n').split('\r\n\r\n').slice(1).join('\r\n\r\n'),
  };
}

describe('what a mint request must look like', () => {
  test('a mint that is not application/json is refused with invalid_request before any upstream request', async () => {
    const bodies: Array<[string | undefined, string]> = [
      ['text/plain', '{}'],
      ['application/x-www-form-urlencoded', 'user=megan'],
      ['multipart/form-data; boundary=x', '--x--'],
      ['application/jsonp', '{}'],
      ['application/json; charset=iso-8859-1', '{}'],
      ['application/json; charset=utf-80', '{}'],
      [undefined, '{}'],
    ];
    await withoutUpstream(portal, async () => {
      for (const [type, body] of bodies) {
        const answer = await portal.request(mintPathOfOpenForm, {
          method: 'POST',
          body,
          headers: { 'content-type': type },
        });
        assertRefused(answer, 'invalid_request', 400);
      }
    });
  });

  test('application/json with a charset parameter (after a space too, as RFC 9110 allows), or in upper case, is accepted', async () => {
    for (const type of [
      'application/json; charset=utf-8',
      'application/json; charset="UTF-8"',
      'application/json ; charset=utf-8',
      'Application/JSON',
    ]) {
      const answer = await portal.mint(openForm, { headers: { 'content-type': type } });
      assert.equal(answer.status, 200, `${type}: ${answer.text}`);
    }
  });

  test('a body that is not valid JSON, or too large, is invalid_request', async () => {
    await withoutUpstream(portal, async () => {
      assertRefused(await portal.mint(openForm, { body: '{"user": ' }), 'invalid_request', 400);
      assertRefused(
        await portal.mint(openForm, { body: JSON.stringify({ pad: 'x'.repeat(40_000) }) }),
        'invalid_request',
        400,
      );
    });
  });

  test('an unknown route or method under the middleware is not_found in the SessionError shape', async () => {
    await withoutUpstream(portal, async () => {
      for (const [method, path] of [
        ['GET', '/nowhere'],
        ['GET', mintPathOfOpenForm],
        ['POST', '/forms'],
        ['DELETE', mintPathOfOpenForm],
        ['POST', '/forms//session'],
      ] as const) {
        assertRefused(await portal.request(path, { method }), 'not_found', 404);
      }
    });
  });
});

describe('Origin and Sec-Fetch-Site, each combination', () => {
  const origins = {
    absent: () => undefined,
    'this origin': () => new URL(portal.server.endpoint).origin,
    'an allowed origin': () => ALLOWED_ORIGIN,
    'this host over https': () => `https://${new URL(portal.server.endpoint).host}`,
    'another origin': () => 'https://evil.example',
    'the null origin': () => 'null',
  } as const;
  const sites = [undefined, 'same-origin', 'none', 'same-site', 'cross-site'] as const;

  function expected(origin: keyof typeof origins, site: (typeof sites)[number]): number {
    if (origin === 'an allowed origin') return 200;
    if (origin !== 'absent' && origin !== 'this origin') return 403;
    return site === 'same-site' || site === 'cross-site' ? 403 : 200;
  }

  for (const origin of Object.keys(origins) as Array<keyof typeof origins>) {
    const outcomes = sites.map((site) => `${site ?? 'absent'} ${expected(origin, site)}`);
    test(`Origin ${origin}, on a mint and on the catalogue, by Sec-Fetch-Site: ${outcomes.join(', ')}; a refusal is forbidden before any upstream request`, async () => {
      for (const site of sites) {
        const headers = { origin: origins[origin](), 'sec-fetch-site': site };
        const before = portal.upstream.length;
        const answers = [
          await portal.mint(openForm, { session: 'adele', headers }),
          await portal.request('/forms', { session: 'adele', headers }),
        ];
        for (const answer of answers) {
          if (expected(origin, site) === 200)
            assert.equal(answer.status, 200, `${site}: ${answer.text}`);
          else assertRefused(answer, 'forbidden', 403);
        }
        if (expected(origin, site) !== 200) assert.deepEqual(portal.upstream.slice(before), []);
      }
    });
  }

  test("behind a proxy, the request's own origin is what trust proxy makes of X-Forwarded-Proto and -Host", async () => {
    const headers = {
      origin: 'https://portal.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'portal.example',
    };
    await using trusting = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
      (app) => app.set('trust proxy', 'loopback'),
    );
    await using untrusting = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const behindProxy = await trusting.mint(openForm, { session: 'adele', headers });
    assert.equal(behindProxy.status, 200, behindProxy.text);
    const logsBefore = watch.logLines.length;
    for (let i = 0; i < 2; i++) {
      const refused = await untrusting.mint(openForm, { session: 'adele', headers });
      assertRefused(refused, 'forbidden', 403);
      assert.match(refused.text, /Origin https:\/\/portal\.example is neither this router's/);
      // The router's own origin, which behind a proxy that rewrites Host is an inner address,
      // goes to the log only.
      assert.doesNotMatch(refused.text, /127\.0\.0\.1/);
    }
    // Said once in the log, with what to change: behind a proxy, the own pages look foreign.
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('refused a request from https://portal.example'));
    assert.equal(told.length, 1);
    assert.match(told[0]?.message ?? '', /own origin is http:\/\/127\.0\.0\.1:\d+\. .*trust proxy/);
  });
});

describe('trust proxy as Express reads it', () => {
  test('a trust proxy function that answers a truthy value other than true (a match) trusts the sender for the own origin, as Express does for req.protocol', async () => {
    // Express tests its answer for truth: X-Forwarded-Proto counts here, so -Host must as well,
    // or the portal's own page is refused as coming from https://portal.example.
    await using trusting = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
      (app) => app.set('trust proxy', (address: string) => address.match(/^(::ffff:)?127\./)),
    );
    const headers = {
      origin: 'https://portal.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'portal.example',
    };
    const answer = await trusting.mint(openForm, { session: 'adele', headers });
    assert.equal(answer.status, 200, answer.text);
  });

  test('of several X-Forwarded-Host values the first is the host, as Express reads req.host', async () => {
    await using trusting = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
      (app) => app.set('trust proxy', 'loopback'),
    );
    const through = (forwardedHost: string) => ({
      session: 'adele',
      headers: {
        origin: 'https://portal.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': forwardedHost,
      },
    });
    const first = await trusting.mint(openForm, through('portal.example, inner.internal:8080'));
    assert.equal(first.status, 200, first.text);
    await withoutUpstream(trusting, async () => {
      const last = await trusting.mint(openForm, through('inner.internal:8080, portal.example'));
      assertRefused(last, 'forbidden', 403);
    });
  });
});

describe('Origin and Sec-Fetch-Site, as written', () => {
  test('Sec-Fetch-Site is read without case or surrounding space: cross-site or same-site in any form is refused', async () => {
    await withoutUpstream(portal, async () => {
      for (const site of ['Cross-Site', 'CROSS-SITE', ' same-site ', 'Same-Site']) {
        const headers = { 'sec-fetch-site': site };
        assertRefused(await portal.mint(openForm, { session: 'adele', headers }), 'forbidden', 403);
      }
    });
  });

  test("an Origin written otherwise than the request's own Host (case, default port) is still its own", async () => {
    await using trusting = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl },
      (app) => app.set('trust proxy', 'loopback'),
    );
    for (const host of ['Portal.Example', 'portal.example:443']) {
      const headers = {
        origin: 'https://portal.example',
        'x-forwarded-proto': 'https',
        'x-forwarded-host': host,
      };
      const answer = await trusting.mint(openForm, { session: 'adele', headers });
      assert.equal(answer.status, 200, `${host}: ${answer.text}`);
    }
  });

  test("when the request's own origin cannot be read (a Host that is no host), any Origin is refused, null too", async () => {
    await withoutUpstream(portal, async () => {
      for (const host of ['portal.example:99999', 'portal example']) {
        for (const origin of ['null', 'https://evil.example']) {
          const answer = await portal.rawRequest(mintPathOfOpenForm, {
            method: 'POST',
            session: 'adele',
            headers: { host, origin },
          });
          assertRefused(answer, 'forbidden', 403);
        }
      }
    });
  });

  test('a request without a readable Host (none in HTTP/1.0, an empty one) has no own origin: every Origin is refused, even the ones its absence would spell', async () => {
    await withoutUpstream(portal, async () => {
      for (const hostLine of [undefined, 'Host: ']) {
        for (const origin of ['http://undefined', 'http://', 'null']) {
          const answer = await postWithHostLine(hostLine, origin);
          assert.equal(answer.status, 403, `${hostLine} ${origin}: ${answer.text}`);
          const { error } = SessionErrorBodySchema.parse(JSON.parse(answer.text));
          assert.equal(error.code, 'forbidden');
        }
      }
    });
  });

  test("a refused origin's line cuts the request's own origin as it cuts the Origin: a Host is the sender's to choose", async () => {
    await using hosted = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    await withoutUpstream(hosted, async () => {
      const host = `${'a'.repeat(8_000)}.example`;
      const answer = await hosted.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        session: 'adele',
        headers: { host, origin: 'https://evil.example' },
      });
      assertRefused(answer, 'forbidden', 403);
    });
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('refused a request from'));
    assert.equal(told.length, 1);
    assert.ok((told[0]?.message.length ?? 0) < 1_000, `${told[0]?.message.length} characters`);
  });

  test("a refused origin's line shows a control or format character of the Origin or the Host escaped, never as itself: a line break there would forge a line of its own", async () => {
    await using hosted = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    // U+0085 (NEL, a line break to many log readers) and U+009B (a terminal's CSI): Node takes a
    // header value's bytes 0x80 to 0xFF and reads them as latin1 (this client sends UTF-8, so
    // each comes after an Â).
    const forged = '\x85[form-embed] the service answered invalid_api_key\x9b2J';
    await withoutUpstream(hosted, async () => {
      for (const headers of [
        { origin: `https://evil.example${forged}` },
        { host: `portal.example${forged}`, origin: 'https://other.example' },
      ]) {
        const answer = await hosted.rawRequest(mintPathOfOpenForm, {
          method: 'POST',
          session: 'adele',
          headers,
        });
        assertRefused(answer, 'forbidden', 403);
      }
    });
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('refused a request from'));
    assert.equal(told.length, 2);
    for (const { message } of told) {
      assert.doesNotMatch(message, /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u, JSON.stringify(message));
      assert.ok(message.includes('\\u0085') && message.includes('\\u009b'), message);
    }
  });

  test('a flood of refused origins logs ten of them, each once, and refuses every one', async () => {
    await using flooded = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    await withoutUpstream(flooded, async () => {
      for (let round = 0; round < 2; round++) {
        for (let i = 0; i < 12; i++) {
          const headers = { origin: `https://flood-${i}.example` };
          assertRefused(await flooded.mint(openForm, { headers }), 'forbidden', 403);
        }
      }
    });
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('refused a request from'))
      .map((line) => line.message.split(':', 3).slice(0, 2).join(':'));
    assert.deepEqual(
      told,
      Array.from({ length: 10 }, (_, i) => `refused a request from https://flood-${i}.example`),
    );
  });

  test("a flood of foreign origins does not hide the portal's own page refused behind a proxy (its host, https against http)", async () => {
    await using flooded = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const own = new URL(flooded.server.endpoint);
    const behindProxy = `https://${own.host}`;
    const logsBefore = watch.logLines.length;
    await withoutUpstream(flooded, async () => {
      for (let i = 0; i < 12; i++) {
        const headers = { origin: `https://flood-${i}.example` };
        assertRefused(await flooded.mint(openForm, { headers }), 'forbidden', 403);
      }
      const headers = { origin: behindProxy };
      assertRefused(await flooded.mint(openForm, { headers }), 'forbidden', 403);
    });
    const told = watch.logLines
      .slice(logsBefore)
      .filter((line) => line.message.startsWith('refused a request from'));
    assert.equal(told.length, 11);
    assert.ok(told.at(-1)?.message.startsWith(`refused a request from ${behindProxy}:`));
  });

  test("the ten are a minute's: a flood does not silence for good the line a later proxy misconfiguration needs", async () => {
    const clock = FakeTimers.install({ toFake: ['Date'] });
    try {
      await using flooded = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
      });
      const logsBefore = watch.logLines.length;
      await withoutUpstream(flooded, async () => {
        for (let i = 0; i < 12; i++) {
          const headers = { origin: `https://flood-${i}.example` };
          assertRefused(await flooded.mint(openForm, { headers }), 'forbidden', 403);
        }
        clock.tick(60_000);
        // The portal's own page, seen as foreign behind a proxy that trust proxy does not know.
        const headers = { origin: 'https://portal.example' };
        assertRefused(await flooded.mint(openForm, { headers }), 'forbidden', 403);
      });
      const told = watch.logLines
        .slice(logsBefore)
        .filter((line) => line.message.startsWith('refused a request from'))
        .map((line) => line.message.split(':', 3).slice(0, 2).join(':'));
      assert.equal(told.length, 11);
      assert.equal(told.at(-1), 'refused a request from https://portal.example');
    } finally {
      clock.uninstall();
    }
  });
});

describe('CORS, for allowedOrigins only', () => {
  const preflight = (origin: string, path = mintPathOfOpenForm) =>
    portal.request(path, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,x-csrf-token',
        'sec-fetch-site': 'same-site',
      },
    });

  test("an allowed origin's preflight is granted, with credentials, for the headers it asks, kept by the browser for 10 minutes, and no-store as every answer is", async () => {
    const answer = await preflight(ALLOWED_ORIGIN);
    assert.equal(answer.status, 204, answer.text);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
    assert.equal(answer.headers.get('access-control-allow-credentials'), 'true');
    assert.match(answer.headers.get('access-control-allow-methods') ?? '', /\bPOST\b/);
    assert.equal(answer.headers.get('access-control-allow-headers'), 'content-type,x-csrf-token');
    assert.match(answer.headers.get('vary') ?? '', /Origin/);
    // Without it Chromium keeps a preflight 5 s: nearly every mint of the page would cost two requests.
    assert.equal(answer.headers.get('access-control-max-age'), '600');
  });

  test("an allowed origin's mint and catalogue answers are readable by its page", async () => {
    const headers = { origin: ALLOWED_ORIGIN, 'sec-fetch-site': 'same-site' };
    for (const answer of [
      await portal.mint(openForm, { session: 'adele', headers }),
      await portal.request('/forms', { session: 'adele', headers }),
    ]) {
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
      assert.equal(answer.headers.get('access-control-allow-credentials'), 'true');
    }
  });

  test("an allowed origin's page may read a refusal's Retry-After, which the element waits out", async () => {
    sandbox.control.reset();
    await sandbox.control.exhaustRateLimit('mints');
    try {
      const answer = await portal.mint(openForm, {
        session: 'adele',
        headers: { origin: ALLOWED_ORIGIN, 'sec-fetch-site': 'same-site' },
      });
      assert.equal(answer.status, 429, answer.text);
      assert.match(answer.headers.get('retry-after') ?? '', /^\d+$/);
      assert.equal(answer.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
      assert.equal(answer.headers.get('access-control-expose-headers'), 'Retry-After');
    } finally {
      sandbox.control.reset();
    }
  });

  test('any other origin gets no CORS header: its preflight and its request are forbidden', async () => {
    const before = portal.upstream.length;
    const answers = [
      await preflight('https://evil.example'),
      await portal.mint(openForm, {
        session: 'adele',
        headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      }),
    ];
    for (const answer of answers) {
      assertRefused(answer, 'forbidden', 403);
      assert.equal(answer.headers.get('access-control-allow-origin'), null);
    }
    assert.deepEqual(portal.upstream.slice(before), []);
  });

  test("a portal's own CORS in front (every origin, with credentials) grants no page outside allowedOrigins a readable answer", async () => {
    // Behind a proxy that passes the client's X-Forwarded-Host on, with trust proxy set, a page
    // that names itself in one passes the Origin check; a browser that sends no Sec-Fetch-Site
    // (Safari before 16.4) then mints for the signed-in user. The portal's cors() granted the
    // preflight; the answer must still not be readable by that page.
    await using permissive = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, allowedOrigins: [ALLOWED_ORIGIN] },
      (app) => {
        app.set('trust proxy', 'loopback');
        app.use(cors({ origin: true, credentials: true }));
      },
    );
    const forged = {
      origin: 'https://evil.example',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
    };
    const refusedHeaders = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
    for (const answer of [
      await permissive.mint(openForm, { session: 'adele', headers: forged }),
      await permissive.request('/forms', { session: 'adele', headers: forged }),
      await permissive.mint(openForm, { session: 'adele', headers: refusedHeaders }),
    ]) {
      assert.equal(answer.headers.get('access-control-allow-origin'), null, answer.text);
      assert.equal(answer.headers.get('access-control-allow-credentials'), null);
    }
    const allowed = await permissive.mint(openForm, {
      session: 'adele',
      headers: { origin: ALLOWED_ORIGIN, 'sec-fetch-site': 'same-site' },
    });
    assert.equal(allowed.status, 200, allowed.text);
    assert.equal(allowed.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
  });

  test('without allowedOrigins, no origin is ever granted CORS', async () => {
    await using closed = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const own = new URL(closed.server.endpoint).origin;
    const answer = await closed.request(mintPathOfOpenForm, {
      method: 'OPTIONS',
      headers: { origin: own, 'access-control-request-method': 'POST' },
    });
    assert.equal(answer.headers.get('access-control-allow-origin'), null);
  });
});
