import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { type Answer, type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const openForm = { kind: 'form', formId: fixtureIds.forms.open } as const;
const mintPathOfOpenForm = `/forms/${fixtureIds.forms.open}/session`;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: { mints: 1000 },
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

async function withoutUpstream(run: () => Promise<void>) {
  const before = portal.upstream.length;
  await run();
  assert.deepEqual(portal.upstream.slice(before), [], 'a refused request reached the service');
}

test('a mint the browser marks as cross-site (Sec-Fetch-Site: cross-site) is refused with forbidden before any upstream request', async () => {
  await withoutUpstream(async () => {
    const answer = await portal.mint(openForm, {
      session: 'adele',
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    assertRefused(answer, 'forbidden', 403);
  });
});

test('a cross-site catalogue read is refused too', async () => {
  await withoutUpstream(async () => {
    assertRefused(
      await portal.request('/forms', {
        session: 'adele',
        headers: { 'sec-fetch-site': 'cross-site' },
      }),
      'forbidden',
      403,
    );
  });
});

test('same-origin, same-site and user-initiated (none) requests are accepted', async () => {
  for (const site of ['same-origin', 'same-site', 'none']) {
    const answer = await portal.mint(openForm, { headers: { 'sec-fetch-site': site } });
    assert.equal(answer.status, 200, `${site}: ${answer.text}`);
  }
});

test('a mint that is not application/json is refused with invalid_request before any upstream request', async () => {
  const bodies: Array<[string | undefined, string]> = [
    ['text/plain', '{}'],
    ['application/x-www-form-urlencoded', 'user=megan'],
    ['multipart/form-data; boundary=x', '--x--'],
    ['application/jsonp', '{}'],
    [undefined, '{}'],
  ];
  await withoutUpstream(async () => {
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

test('application/json with a charset parameter, or in upper case, is accepted', async () => {
  for (const type of ['application/json; charset=utf-8', 'Application/JSON']) {
    const answer = await portal.mint(openForm, { headers: { 'content-type': type } });
    assert.equal(answer.status, 200, `${type}: ${answer.text}`);
  }
});

test('without Fetch Metadata, a POST whose Origin is another host is refused; this host is accepted', async () => {
  const host = new URL(portal.server.endpoint).host;
  await withoutUpstream(async () => {
    for (const origin of ['https://evil.example', 'null', `http://${host}.evil.example`]) {
      const answer = await portal.mint(openForm, {
        headers: { 'sec-fetch-site': undefined, origin },
      });
      assertRefused(answer, 'forbidden', 403);
    }
  });
  const same = await portal.mint(openForm, {
    headers: { 'sec-fetch-site': undefined, origin: `http://${host}` },
  });
  assert.equal(same.status, 200, same.text);
});

test('a body that is not valid JSON, or too large, is invalid_request', async () => {
  await withoutUpstream(async () => {
    assertRefused(await portal.mint(openForm, { body: '{"user": ' }), 'invalid_request', 400);
    assertRefused(
      await portal.mint(openForm, { body: JSON.stringify({ pad: 'x'.repeat(40_000) }) }),
      'invalid_request',
      400,
    );
  });
});

test('an unknown route or method under the middleware is not_found in the SessionError shape', async () => {
  await withoutUpstream(async () => {
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
