import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { FORM_REF_MAX_LENGTH, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { answerMe, startFakeUpstream } from './helpers/fake-upstream.js';
import { type Answer, type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
let authorizeCalls = 0;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    authorize: () => {
      authorizeCalls += 1;
      return true;
    },
    // One mint per window: a refused id that reached the limit would spend it.
    limit: { mints: 1, windowMs: 60_000 },
  });
});

after(async () => {
  await portal.close();
  await sandbox.close();
  // Whatever reached the service, a mint went only to a form-session endpoint.
  for (const call of portal.upstream.filter((call) => call.method === 'POST')) {
    const { pathname } = new URL(call.url);
    assert.match(pathname, /^\/api\/v1\/(core\/)?forms\/[^/]+\/session$/, call.url);
  }
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** The mint is refused as invalid_request, and nothing was asked: authorize, the limit, the service. */
async function assertRefusedBeforeAnything(send: () => Promise<Answer>, message: RegExp) {
  const statsBefore = sandbox.control.stats();
  const upstreamBefore = portal.upstream.length;
  const authorizeBefore = authorizeCalls;
  const answer = await send();
  assert.equal(answer.status, 400, answer.text);
  const { error } = SessionErrorBodySchema.parse(answer.body);
  assert.equal(error.code, 'invalid_request');
  assert.equal(error.retryable, false);
  assert.match(error.message, message);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  assert.deepEqual(sandbox.control.stats(), statsBefore, 'no request reached the service');
  assert.equal(portal.upstream.length, upstreamBefore);
  assert.equal(authorizeCalls, authorizeBefore, 'authorize was not asked');
}

describe('form ids and slugs the browser names (docs/contract.md#form-ids)', () => {
  const dotSegments = ['%2E%2E', '%2e%2e', '.%2E', '..', '%2E', '.'];
  for (const route of ['forms', 'core-forms']) {
    for (const segment of dotSegments) {
      test(`a ${route} mint naming the dot segment ${segment} is invalid_request before authorize, the per-user limit or any upstream request`, async () => {
        await assertRefusedBeforeAnything(
          () =>
            portal.rawRequest(`/${route}/${segment}/session`, { method: 'POST', session: 'adele' }),
          /not a valid/,
        );
      });
    }

    test(`a ${route} mint naming an id over ${FORM_REF_MAX_LENGTH} characters is invalid_request, not retryable, before authorize, the limit or any upstream request`, async () => {
      for (const id of ['x'.repeat(FORM_REF_MAX_LENGTH + 1), ':'.repeat(2_000)]) {
        await assertRefusedBeforeAnything(
          () =>
            portal.rawRequest(`/${route}/${encodeURIComponent(id)}/session`, {
              method: 'POST',
              session: 'adele',
            }),
          /at most 200 characters/,
        );
      }
    });
  }

  for (const character of ['/', '\\', '?', '#', '%']) {
    test(`an id holding ${character}, which a gateway decoding paths would read as path syntax, is invalid_request before anything`, async () => {
      for (const route of ['forms', 'core-forms']) {
        const id = `a${character}..${character}${character}b`;
        await assertRefusedBeforeAnything(
          () =>
            portal.rawRequest(`/${route}/${encodeURIComponent(id)}/session`, {
              method: 'POST',
              session: 'adele',
            }),
          /must not contain/,
        );
      }
    });
  }

  test('after every refused id the user still has their one mint: the limit was not spent', async () => {
    const answer = await portal.mint(
      { kind: 'form', formId: fixtureIds.forms.microsoft },
      { session: 'adele' },
    );
    assert.equal(answer.status, 200, answer.text);
    assert.ok(watch.handles.size > 0, 'the watch saw the minted handle');
  });
});

describe('an upstream that refuses the request line or headers as too long', () => {
  for (const status of [414, 431]) {
    test(`an upstream ${status} with no body is invalid_request, not retryable, and no error log blames baseUrl`, async () => {
      await using upstream = await startFakeUpstream((req, res) => {
        if (answerMe(req, res)) return;
        res.writeHead(status, { connection: 'close' }).end();
      });
      await using refused = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: upstream.baseUrl,
        resolveUser: () => ({ clientId: fixtureIds.clients.contoso }),
      });
      const logsBefore = watch.logLines.length;
      const answer = await refused.mint({
        kind: 'form',
        formId: 'f'.repeat(FORM_REF_MAX_LENGTH),
      });
      assert.equal(answer.status, 400, answer.text);
      const { error } = SessionErrorBodySchema.parse(answer.body);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.retryable, false);
      const logged = watch.logLines.slice(logsBefore);
      assert.ok(
        logged.every((line) => !line.message.includes('baseUrl')),
        JSON.stringify(logged),
      );
      assert.ok(
        upstream.requests.some((line) => line.startsWith('POST ')),
        'the mint was sent',
      );
    });
  }
});

// A form id is the browser's to choose; a line break in it, raw in a log line, would forge a
// line of its own (a text log), or one a log reader splits (NEL, U+2028 in a JSON one).
test("a form id's line breaks and other invisible characters reach a log line escaped", async () => {
  await using vetoing = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    authorize: () => {
      throw new Error('unknown form');
    },
  });
  const forged = 'x\n[form-embed] error: FORGED\u0085NEL\u2028LS\u202eRLO';
  const logsBefore = watch.logLines.length;
  const answer = await vetoing.mint({ kind: 'form', formId: forged }, { session: 'adele' });
  assert.equal(answer.status, 500, answer.text);
  const line = watch.logLines.slice(logsBefore).find((l) => l.message === 'authorize threw');
  const target = String(line?.details?.target);
  assert.doesNotMatch(target, /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u, JSON.stringify(target));
  assert.equal(target, 'form x\\u000a[form-embed] error: FORGED\\u0085NEL\\u2028LS\\u202eRLO');
});
