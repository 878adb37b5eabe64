import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { formEmbedSessions } from '@form-embed/express';
import { MintResponseSchema, mintPath, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { createServer } from './helpers/create-server.js';
import { answerMe, fakeOrganisation, startFakeUpstream } from './helpers/fake-upstream.js';
import {
  type Answer,
  type MountedMiddleware,
  mountMiddleware,
  PORTAL_SESSION_HEADER,
  resolvePortalUser,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesAtExactly } from './helpers/settles.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const TIMEOUT_MS = 300;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1000 },
  });
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

const meCount = () => sandbox.control.stats()['GET /api/v1/me'] ?? 0;

/** The sandbox as it is, but each successful mint's answer rewritten by `rewrite`. */
function rewritingMints(rewrite: (session: MintedSession) => unknown): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (init?.method !== 'POST' || !response.ok) return response;
    return Response.json(rewrite((await response.json()) as MintedSession));
  };
}

type MintedSession = Record<string, unknown> & { embedUrl: string };

function assertSessionError(answer: Answer, code: string, status: number, retryable: boolean) {
  assert.equal(answer.status, status, answer.text);
  const { error } = SessionErrorBodySchema.parse(answer.body);
  assert.equal(error.code, code);
  assert.equal(error.retryable, retryable);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

describe('an upstream that fails or answers outside the contract', () => {
  test('an upstream slower than timeoutMs is unavailable (503, retryable), answered once timeoutMs has passed', async (t) => {
    // The form-session request never answers until it is aborted; the other reads pass through.
    let reachedUpstream: () => void = () => {};
    const upstreamReached = new Promise<void>((resolve) => {
      reachedUpstream = resolve;
    });
    await using impatient = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      timeoutMs: TIMEOUT_MS,
      fetch: (input, init) => {
        if (!String(input).endsWith('/session')) return fetch(input, init);
        reachedUpstream();
        return new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      },
    });
    // Only the middleware's own timers: sockets and the portal's server keep real time.
    const clock = FakeTimers.install({
      toFake: ['setTimeout', 'clearTimeout'],
      shouldClearNativeTimers: true,
    });
    t.after(() => clock.uninstall());
    const answered = impatient.mint(microsoftForm, { session: 'adele' });
    await upstreamReached;
    const answer = await settlesAtExactly(clock, answered, TIMEOUT_MS, 'the mint');
    assertSessionError(answer, 'unavailable', 503, true);
    assert.ok(watch.logLines.some((line) => line.message.includes('within timeoutMs')));
  });

  test('a connection reset by the upstream is unavailable (503, retryable)', async () => {
    sandbox.control.fail({ kind: 'reset', scope: 'session' });
    assertSessionError(
      await portal.mint(microsoftForm, { session: 'adele' }),
      'unavailable',
      503,
      true,
    );
  });

  test('an upstream answer that is not JSON is internal_error, logged', async () => {
    sandbox.control.fail({ kind: 'notJson', scope: 'session' });
    const before = watch.logLines.length;
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'internal_error', 500, true);
    assert.ok(!answer.text.includes('<html>'));
    assert.ok(
      watch.logLines
        .slice(before)
        .some((line) => line.message.includes('not in the documented shape')),
    );
  });

  test("the organisation's own rate limit reaches the browser as rate_limited with Retry-After, without X-RateLimit-*", async () => {
    await sandbox.control.exhaustRateLimit('mints');
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'rate_limited', 429, true);
    assert.match(answer.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
    assert.equal(answer.headers.get('x-ratelimit-limit'), null);
    assert.equal(answer.headers.get('x-ratelimit-remaining'), null);
  });

  test('a gateway in front of the service answering {error} without a code is read by its status: 502 and 503 stay retryable and pass on a Retry-After they gave, 429 keeps its wait, a 400 or 404 is not retried', async () => {
    // What a proxy or API gateway between the portal and the service answers on its own.
    const gatewayAnswers = [
      { status: 503, body: { error: { message: 'upstream overloaded' } }, retryAfter: undefined },
      {
        status: 502,
        body: { error: { code: 502, message: 'Bad gateway' } },
        retryAfter: '5',
      },
      { status: 429, body: { error: { code: 429, message: 'Too many' } }, retryAfter: '7' },
      { status: 400, body: { error: { message: 'Bad request' } }, retryAfter: undefined },
      // A path the service does not have answers the contract's plain {error: string}.
      { status: 404, body: { error: 'Not found' }, retryAfter: undefined },
      { status: 403, body: { error: 'Blocked by a rule' }, retryAfter: undefined },
      { status: 405, body: { error: 'Method not allowed' }, retryAfter: undefined },
      { status: 410, body: { error: 'Gone' }, retryAfter: undefined },
      { status: 418, body: { error: 'Teapot' }, retryAfter: undefined },
    ];
    // A plain refusal of the request as such fails again if sent again: not retried.
    const expected = [
      ['unavailable', 503, true, null],
      ['unavailable', 503, true, '5'],
      ['rate_limited', 429, true, '7'],
      ['invalid_request', 400, false, null],
      ['invalid_request', 400, false, null],
      ['invalid_request', 400, false, null],
      ['invalid_request', 400, false, null],
      ['invalid_request', 400, false, null],
      ['internal_error', 500, true, null],
    ];
    for (const [index, gateway] of gatewayAnswers.entries()) {
      await using behindGateway = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        fetch: async (input, init) =>
          String(input).endsWith('/session')
            ? Response.json(gateway.body, {
                status: gateway.status,
                headers: gateway.retryAfter ? { 'retry-after': gateway.retryAfter } : {},
              })
            : fetch(input, init),
      });
      const logsBefore = watch.logLines.length;
      const answer = await behindGateway.mint(microsoftForm, { session: 'adele' });
      const [code, status, retryable, retryAfter] = expected[index] ?? [];
      assertSessionError(answer, code as string, status as number, retryable as boolean);
      assert.equal(answer.headers.get('retry-after'), retryAfter, JSON.stringify(gateway));
      if (gateway.status === 502) {
        // The endpoint as configured, its form id unfilled: one line a minute per endpoint.
        const line = watch.logLines
          .slice(logsBefore)
          .find((logged) => logged.message === 'the service answered 502 on formSession');
        assert.deepEqual(line?.details, {
          request: `POST ${sandbox.baseUrl}/api/v1/forms/{formId}/session`,
        });
      }
    }
  });

  test("a plain 403 on the middleware's own read (GET /me) stays internal_error: the browser's request is not what was refused", async () => {
    await using refusedRead = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: async (input, init) =>
        String(input).endsWith('/api/v1/me')
          ? Response.json({ error: 'Forbidden' }, { status: 403 })
          : fetch(input, init),
    });
    const answer = await refusedRead.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'internal_error', 500, true);
  });

  test('a 2xx mint answer missing documented fields is internal_error', async () => {
    await using partial = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      // No expiresIn: how long the handle lasts decides whether the element may frame it. (A
      // provider this release does not know is no missing field: mint.test.ts.)
      fetch: rewritingMints(({ embedUrl, provider }) => ({ embedUrl, provider })),
    });
    const answer = await partial.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'internal_error', 500, true);
  });

  test("a provider not written as the contract writes its enums' values (a lower-case letter, then letters, digits or underscores, at most 64 characters) is internal_error and never reaches the browser", async () => {
    for (const provider of ['Pass Key', 'PassKey', 'passkey\n', `a${'b'.repeat(64)}`, 7, '']) {
      await using odd = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        fetch: rewritingMints((session) => ({ ...session, provider })),
      });
      const answer = await odd.mint(microsoftForm, { session: 'adele' });
      assertSessionError(answer, 'internal_error', 500, true);
    }
  });

  // A service echoing the Authorization header it was sent (a debug parameter, a provider field)
  // would hand the key to the browser: SECURITY.md says it never reaches one.
  test('a mint whose embedUrl or provider holds the API key is internal_error, and the browser never sees the key', async () => {
    const key = sandbox.apiKey;
    const echoes: Array<(session: MintedSession) => unknown> = [
      (session) => ({ ...session, provider: key }),
      (session) => ({ ...session, embedUrl: `${session.embedUrl}&debug=${key}` }),
      (session) => ({
        ...session,
        embedUrl: `${session.embedUrl}&k=${encodeURIComponent(btoa(key))}`,
      }),
    ];
    for (const echo of echoes) {
      await using echoing = await mountMiddleware(watch, {
        apiKey: key,
        baseUrl: sandbox.baseUrl,
        fetch: rewritingMints(echo),
      });
      const logsBefore = watch.logLines.length;
      const answer = await echoing.mint(microsoftForm, { session: 'adele' });
      assertSessionError(answer, 'internal_error', 500, true);
      assert.ok(!answer.text.includes(key), answer.text);
      assert.match(
        watch.logLines
          .slice(logsBefore)
          .map((line) => line.message)
          .join('\n'),
        /holds the API key in its embedUrl or provider/,
      );
    }
  });

  test('an embedUrl on the embed origin that carries a user name or password (https://user:pw@host/) is internal_error and never reaches the browser', async () => {
    for (const credentials of ['attacker:hunter2@', 'attacker@', ':hunter2@']) {
      await using withCredentials = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        fetch: rewritingMints((session) => ({
          ...session,
          embedUrl: session.embedUrl.replace('://', `://${credentials}`),
        })),
      });
      const logsBefore = watch.logLines.length;
      const answer = await withCredentials.mint(microsoftForm, { session: 'adele' });
      assertSessionError(answer, 'internal_error', 500, true);
      assert.ok(!answer.text.includes('attacker') && !answer.text.includes('hunter2'), answer.text);
      assert.ok(
        watch.logLines.slice(logsBefore).some((line) => line.level === 'error'),
        credentials,
      );
    }
  });

  test('an embedUrl that is not http(s) but whose origin is the embed origin (blob:, view-source:) is internal_error and never reaches the browser', async () => {
    for (const scheme of ['blob:', 'view-source:']) {
      await using otherScheme = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        fetch: rewritingMints((session) => ({
          ...session,
          embedUrl: `${scheme}${session.embedUrl}`,
        })),
      });
      const answer = await otherScheme.mint(microsoftForm, { session: 'adele' });
      assertSessionError(answer, 'internal_error', 500, true);
      assert.ok(!answer.text.includes(scheme), answer.text);
    }
  });

  test('a redirect from the service is not followed: the mint is invalid_request (the same mint meets it again), the log says what to check, and the key goes nowhere else', async () => {
    // A 307 keeps the method, the body and (on the same origin) the Authorization header: followed,
    // the key and the user would go to whatever path the answer names. A redirect is the portal's
    // configuration (an http baseUrl the service sends to https, a path it moved), not an outage.
    await using upstream = await startFakeUpstream((req, res) => {
      if (answerMe(req, res)) return;
      if (req.url?.endsWith('/session')) {
        res.writeHead(307, { location: '/elsewhere?token=abc' }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      const embedUrl = `${fakeOrganisation.formsOrigin}/s/redirected`;
      res.end(JSON.stringify({ embedUrl, provider: 'microsoft', expiresIn: 120 }));
    });
    await using redirected = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: upstream.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    const answer = await redirected.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'invalid_request', 400, false);
    assert.ok(
      !upstream.requests.some((request) => request.includes('/elsewhere')),
      `${upstream.requests}`,
    );
    const told = watch.logLines.slice(logsBefore);
    const line = told.find((logged) =>
      /POST formSession with a redirect, .*baseUrl/.test(logged.message),
    );
    // The endpoint as configured, as the other lines of a request that got no answer name it.
    assert.equal(
      line?.details?.request,
      `POST ${upstream.baseUrl}/api/v1/forms/{formId}/session`,
      JSON.stringify(told),
    );
  });

  test("a redirect on a read of the middleware's own (the forms list) is internal_error, as a read in another shape is: the browser's request is not what was refused", async () => {
    await using upstream = await startFakeUpstream((req, res) => {
      if (answerMe(req, res)) return;
      res.writeHead(301, { location: 'https://moved.example/api/v1/forms?token=abc' }).end();
    });
    await using redirected = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: upstream.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    const answer = await redirected.request('/forms', { session: 'adele' });
    assertSessionError(answer, 'internal_error', 500, true);
    const told = watch.logLines.slice(logsBefore);
    const line = told.find((logged) => /GET forms with a redirect/.test(logged.message));
    assert.equal(line?.level, 'error', JSON.stringify(told));
  });

  test('a redirect status without a Location is refused as a redirect all the same (fetch refuses the status): invalid_request on the mint', async () => {
    await using upstream = await startFakeUpstream((req, res) => {
      if (answerMe(req, res)) return;
      res.writeHead(302).end();
    });
    await using redirected = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: upstream.baseUrl,
    });
    const answer = await redirected.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'invalid_request', 400, false);
  });

  test('an upstream that cannot be reached at all is unavailable (503, retryable)', async () => {
    const closed = await startSandbox();
    const baseUrl = closed.baseUrl;
    await closed.close();
    await using unreachable = await mountMiddleware(watch, { apiKey: sandbox.apiKey, baseUrl });
    assertSessionError(
      await unreachable.mint(microsoftForm, { session: 'adele' }),
      'unavailable',
      503,
      true,
    );
  });
});

describe('the embed origins from GET /me (docs/contract.md#organisation-and-embed-origins)', () => {
  test('a mint sent while GET /me is out waits for it: when it fails, the mint fails without being spent', async () => {
    const posted: string[] = [];
    let meRequests = 0;
    let firstMeFailed: () => void = () => {};
    const prefetchFailed = new Promise<void>((resolve) => {
      firstMeFailed = resolve;
    });
    let secondMeAsked: () => void = () => {};
    const mintWaiting = new Promise<void>((resolve) => {
      secondMeAsked = resolve;
    });
    let answerSecondMe: () => void = () => {};
    const secondMeAnswered = new Promise<void>((resolve) => {
      answerSecondMe = resolve;
    });
    const middleware = formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: resolvePortalUser,
      // GET /me fails at creation, then again once the first mint has waited on it; the rest
      // goes to the sandbox.
      fetch: async (input, init) => {
        if (init?.method === 'POST') posted.push(String(input));
        if (String(input).endsWith('/api/v1/me')) {
          meRequests += 1;
          if (meRequests === 1) {
            firstMeFailed();
            return Response.json({ error: 'down' }, { status: 503 });
          }
          if (meRequests === 2) {
            secondMeAsked();
            await secondMeAnswered;
            return Response.json({ error: 'down' }, { status: 503 });
          }
        }
        return fetch(input, init);
      },
    });
    await using server = await createServer(middleware);
    const mintOnce = async () => {
      const answer = await fetch(`${server.endpoint}${mintPath(microsoftForm)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [PORTAL_SESSION_HEADER]: 'adele' },
        body: '{}',
      });
      const text = await answer.text();
      watch.record(answer, text);
      return { status: answer.status, text };
    };
    await prefetchFailed;
    const first = mintOnce();
    // Raced with the mint's answer: a mint that did not wait would answer without asking, and
    // this test would otherwise wait for a GET /me that never comes.
    const firstStep = await Promise.race([
      mintWaiting.then(() => 'asked GET /me again'),
      first.then(({ status }) => `answered ${status} without asking GET /me again`),
    ]);
    assert.equal(firstStep, 'asked GET /me again');
    assert.deepEqual(posted, [], 'nothing was minted while GET /me was out');
    answerSecondMe();
    const failed = await first;
    assert.equal(failed.status, 503, failed.text);
    assert.deepEqual(posted, [], 'no mint was spent');
    // The failure is not kept: the next mint fetches the origins again, and is framed.
    const next = await mintOnce();
    assert.equal(next.status, 200, next.text);
    assert.equal(posted.length, 1);
  });

  test('an embedUrl on a new forms domain makes the middleware refresh the embed origins once, then answer on the new origin', async () => {
    const first = MintResponseSchema.parse(
      (await portal.mint(microsoftForm, { session: 'adele' })).body,
    );
    const meBefore = meCount();
    const { formsOrigin } = await sandbox.control.changeFormsDomain('forms');
    assert.notEqual(formsOrigin, first.embedOrigin);
    const moved = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(moved.status, 200, moved.text);
    const body = MintResponseSchema.parse(moved.body);
    assert.equal(body.embedOrigin, formsOrigin);
    assert.ok(body.embedUrl.startsWith(`${formsOrigin}/`));
    assert.equal(meCount() - meBefore, 1);
    const again = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(MintResponseSchema.parse(again.body).embedOrigin, formsOrigin);
    assert.equal(meCount() - meBefore, 1);
  });

  test('concurrent mints that all meet a new Core forms domain share one refresh of the embed origins', async () => {
    const newStarter = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;
    assert.equal((await portal.mint(newStarter, { session: 'adele' })).status, 200);
    const meBefore = meCount();
    const { coreFormsOrigin } = await sandbox.control.changeFormsDomain('coreForms');
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => portal.mint(newStarter, { session: 'adele' })),
    );
    for (const answer of answers) {
      assert.equal(answer.status, 200, answer.text);
      assert.equal(MintResponseSchema.parse(answer.body).embedOrigin, coreFormsOrigin);
    }
    assert.equal(meCount() - meBefore, 1);
  });

  test("an embedUrl on the organisation's other embed origin (a designer form's on the Core one, and back) is refused", async () => {
    const cases = [
      { target: microsoftForm, origin: sandbox.coreFormsOrigin },
      {
        target: { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const,
        origin: sandbox.formsOrigin,
      },
    ];
    for (const { target, origin } of cases) {
      sandbox.control.fail({ kind: 'foreignEmbedUrl', scope: 'session', origin });
      const logsBefore = watch.logLines.length;
      const answer = await portal.mint(target, { session: 'adele' });
      assertSessionError(answer, 'internal_error', 500, true);
      assert.ok(
        watch.logLines
          .slice(logsBefore)
          .some((line) => line.level === 'error' && line.message.includes('embed origin')),
        target.kind,
      );
    }
  });

  test('an embedUrl that is still not on the embed origin after the refresh is refused, logged without its handle, and never reaches the browser', async () => {
    // The sandbox's fault: one successful mint whose embedUrl is on a foreign origin.
    sandbox.control.fail({
      kind: 'foreignEmbedUrl',
      scope: 'session',
      origin: 'https://forms.attacker.example',
    });
    const meBefore = meCount();
    const handlesBefore = new Set(watch.handles);
    await using foreign = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logsBefore = watch.logLines.length;
    const answer = await foreign.mint(microsoftForm, { session: 'adele' });
    assertSessionError(answer, 'internal_error', 500, true);
    assert.equal(meCount() - meBefore, 2, 'the GET /me at creation and one refresh');
    await watch.settled();
    const handles = [...watch.handles].filter((handle) => !handlesBefore.has(handle));
    assert.equal(handles.length, 1);
    const handle = handles[0] ?? '';
    assert.ok(handle.length > 0);
    assert.ok(!answer.text.includes('attacker') && !answer.text.includes(handle));
    const logged = watch.logLines.slice(logsBefore);
    assert.ok(
      logged.some((line) => line.level === 'error' && line.message.includes('embed origin')),
    );
    assert.ok(logged.every((line) => !JSON.stringify(line).includes(handle)));
  });
});
