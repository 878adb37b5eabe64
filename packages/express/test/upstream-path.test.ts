import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
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
    // One mint per window: a dot segment that reached the limit would spend it.
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

const dotSegments = ['%2E%2E', '%2e%2e', '.%2E', '..', '%2E', '.'];

for (const route of ['forms', 'core-forms']) {
  for (const segment of dotSegments) {
    test(`a ${route} mint naming the dot segment ${segment} is invalid_request before authorize, the per-user limit or any upstream request`, async () => {
      const statsBefore = sandbox.control.stats();
      const upstreamBefore = portal.upstream.length;
      const authorizeBefore = authorizeCalls;
      const answer = await portal.rawRequest(`/${route}/${segment}/session`, {
        method: 'POST',
        session: 'adele',
      });
      assert.equal(answer.status, 400, answer.text);
      const { error } = SessionErrorBodySchema.parse(answer.body);
      assert.equal(error.code, 'invalid_request');
      assert.equal(error.retryable, false);
      assert.match(error.message, /not a valid path segment/);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      assert.deepEqual(sandbox.control.stats(), statsBefore, 'no request reached the service');
      assert.equal(portal.upstream.length, upstreamBefore);
      assert.equal(authorizeCalls, authorizeBefore, 'authorize was not asked');
    });
  }
}

test('after every refused dot segment the user still has their one mint: the limit was not spent', async () => {
  const answer = await portal.mint(
    { kind: 'form', formId: fixtureIds.forms.microsoft },
    { session: 'adele' },
  );
  assert.equal(answer.status, 200, answer.text);
  assert.ok(watch.handles.size > 0, 'the watch saw the minted handle');
});
