import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { formEmbedSessions } from '@form-embed/express';
import { MintResponseSchema, SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, fixtureKeys, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const newStarter = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;
const meCount = () => sandbox.control.stats()['GET /api/v1/me'] ?? 0;

before(async () => {
  sandbox = await startSandbox();
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

describe('the embed origins, fetched when the middleware is created (docs/contract.md#organisation-and-embed-origins)', () => {
  test('GET /me is sent when the middleware is created, before any request reaches it', async () => {
    await using _portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    assert.equal(meCount(), 1);
  });

  test("a first mint does not wait on the organisation's read limit: once the catalogue has spent it, the mint still succeeds", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    await sandbox.control.exhaustRateLimit('reads');
    const answer = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(answer.status, 200, answer.text);
  });

  test('a failure of that GET /me is logged, and creating the middleware does not throw', async () => {
    sandbox.control.fail({ kind: 'reset', scope: 'api' });
    const logsBefore = watch.logLines.length;
    await using _portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const logged = watch.logLines.slice(logsBefore).map((line) => line.message);
    assert.ok(
      logged.some((message) => message.includes('GET /api/v1/me')),
      JSON.stringify(logged),
    );
  });

  test('a failed refresh keeps the last good origins: the other kind of form still mints without asking again', async () => {
    let meFails = false;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: async (input, init) =>
        meFails && String(input).endsWith('/api/v1/me')
          ? new Response('busy', { status: 503 })
          : fetch(input, init),
    });
    assert.equal((await portal.mint(newStarter, { session: 'adele' })).status, 200);
    await sandbox.control.changeFormsDomain('forms');
    meFails = true;
    const moved = await portal.mint(microsoftForm, { session: 'adele' });
    assert.equal(moved.status, 500, 'the new forms origin could not be confirmed');
    assert.equal(SessionErrorBodySchema.parse(moved.body).error.code, 'internal_error');
    const upstreamBefore = portal.upstream.length;
    const core = await portal.mint(newStarter, { session: 'adele' });
    assert.equal(core.status, 200, core.text);
    assert.equal(MintResponseSchema.parse(core.body).embedOrigin, sandbox.coreFormsOrigin);
    assert.deepEqual(
      portal.upstream.slice(upstreamBefore).map((call) => new URL(call.url).pathname),
      [`/api/v1/core/forms/${fixtureIds.coreForms.newStarter}/session`],
    );
  });
});

describe("the Router's embedOrigins(), for a page's Content-Security-Policy", () => {
  test('are the origins GET /me answered, from the read the Router made when it was created', async () => {
    const sessions = formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: () => undefined,
    });
    const origins = { formsOrigin: sandbox.formsOrigin, coreFormsOrigin: sandbox.coreFormsOrigin };
    assert.deepEqual(await sessions.embedOrigins(), origins);
    assert.deepEqual(await sessions.embedOrigins(), origins);
    assert.equal(meCount(), 1);
  });

  test('are undefined, never a rejection, while no read has succeeded', async () => {
    const sessions = formEmbedSessions({
      apiKey: fixtureKeys.revoked,
      baseUrl: sandbox.baseUrl,
      logger: watch.logger,
      resolveUser: () => undefined,
    });
    assert.equal(await sessions.embedOrigins(), undefined);
  });
});
