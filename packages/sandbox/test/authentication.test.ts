import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { defaultServicePaths, expandPath, PlainErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, fixtureKeys, type Sandbox, startSandbox } from '../src/index.js';
import { call, requestSession, sandboxFor, sessionError, sessionPath } from './helpers.js';

describe('authentication', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  const badKeys: Record<string, string | null> = {
    missing: null,
    'malformed (no fixed prefix)': 'sk_live_abcdef',
    'unknown (prefix, unknown value)': 'fe_test_nobody_has_this_key',
    revoked: fixtureKeys.revoked,
    expired: fixtureKeys.expired,
  };

  test('a missing, malformed, unknown, revoked or expired key answers 401 {error} on plain endpoints', async () => {
    for (const [name, apiKey] of Object.entries(badKeys)) {
      const response = await call(sandbox, defaultServicePaths.me, { apiKey });
      assert.equal(response.status, 401, name);
      const body = PlainErrorBodySchema.parse(await response.json());
      if (apiKey) assert.ok(!body.error.includes(apiKey), `${name}: the message repeats the key`);
      assert.equal(
        response.headers.get('x-ratelimit-limit'),
        null,
        'only authenticated answers carry limits',
      );
    }
  });

  test('each bad key is told what is wrong with it: a key without the fixed prefix is malformed, not invalid', async () => {
    const messages: Record<keyof typeof badKeys, string> = {
      missing: 'Missing API key: send Authorization: Bearer <API_KEY>.',
      'malformed (no fixed prefix)': 'Malformed API key: send Authorization: Bearer <API_KEY>.',
      'unknown (prefix, unknown value)': 'Invalid API key.',
      revoked: 'This API key was revoked.',
      expired: 'This API key has expired.',
    };
    const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
    for (const [name, apiKey] of Object.entries(badKeys)) {
      const plain = await call(sandbox, defaultServicePaths.me, { apiKey });
      assert.equal(PlainErrorBodySchema.parse(await plain.json()).error, messages[name], name);
      const session = await requestSession(sandbox, microsoftForm, undefined, { apiKey });
      assert.equal((await sessionError(session)).message, messages[name], name);
    }
  });

  test('the auth scheme is read in any case, as HTTP reads it: bearer and BEARER are Bearer', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer ']) {
      const response = await fetch(`${sandbox.baseUrl}${defaultServicePaths.me}`, {
        headers: { authorization: `${scheme} ${sandbox.apiKey}` },
      });
      assert.equal(response.status, 200, scheme);
    }
    const basic = await fetch(`${sandbox.baseUrl}${defaultServicePaths.me}`, {
      headers: { authorization: `Basic ${sandbox.apiKey}` },
    });
    assert.equal(basic.status, 401);
    const noScheme = await fetch(`${sandbox.baseUrl}${defaultServicePaths.me}`, {
      headers: { authorization: sandbox.apiKey },
    });
    assert.equal(noScheme.status, 401, 'the key alone, without Bearer, is malformed');
  });

  test('every bad key answers the invalid_api_key SessionError (401, not retryable) on both form-session endpoints', async () => {
    for (const [name, apiKey] of Object.entries(badKeys)) {
      for (const target of [
        { kind: 'form', formId: fixtureIds.forms.microsoft } as const,
        { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const,
      ]) {
        const response = await requestSession(sandbox, target, undefined, { apiKey });
        assert.equal(response.status, 401, name);
        const error = await sessionError(response);
        assert.equal(error.code, 'invalid_api_key');
        assert.equal(error.retryable, false);
      }
    }
  });

  test('auth comes first: an unknown route answers 401 without a key and 404 {error} with one', async () => {
    const without = await call(sandbox, '/api/v1/no-such-thing', { apiKey: null });
    assert.equal(without.status, 401);
    PlainErrorBodySchema.parse(await without.json());
    const withKey = await call(sandbox, '/api/v1/no-such-thing');
    assert.equal(withKey.status, 404);
    PlainErrorBodySchema.parse(await withKey.json());
    const wrongMethod = await call(sandbox, defaultServicePaths.me, { method: 'DELETE' });
    assert.equal(wrongMethod.status, 404);
    PlainErrorBodySchema.parse(await wrongMethod.json());
  });

  test('HEAD matches no route, a mint least of all: 404 with the read limit, and nothing is minted', async (t) => {
    const fresh = await sandboxFor(t);
    const mintPath = sessionPath({ kind: 'form', formId: fixtureIds.forms.microsoft });
    const head = await call(fresh, mintPath, { method: 'HEAD' });
    assert.equal(head.status, 404);
    assert.equal(head.headers.get('x-ratelimit-limit'), '200', 'counted as a read, not a mint');
    assert.equal(head.headers.get('cache-control'), null);
    assert.deepEqual(fresh.control.storeStats(), { handles: 0, sessions: 0, lapsed: 0 });
    assert.deepEqual(fresh.control.stats(), { 'HEAD (no route)': 1 });
  });

  test('a path parameter that is not valid percent-encoding is no route: 404 {error}, on the session endpoints too', async () => {
    for (const [method, path] of [
      ['POST', '/api/v1/forms/%E0%A4%A/session'],
      ['POST', '/api/v1/core/forms/%E0%A4%A/session'],
      ['GET', '/api/v1/clients/%E0%A4%A'],
      ['GET', '/api/v1/core/forms/%E0%A4%A'],
    ] as const) {
      const response = await call(sandbox, path, {
        method,
        ...(method === 'POST' ? { body: '{}' } : {}),
      });
      assert.equal(response.status, 404, path);
      const body = PlainErrorBodySchema.parse(await response.json());
      assert.equal(body.error, `No such route: ${method} ${path}`);
    }
  });

  test('a record of another organisation answers 404, the same as a missing one', async () => {
    const other = await call(
      sandbox,
      expandPath(defaultServicePaths.client, { clientId: fixtureIds.clients.otherOrg }),
    );
    const missing = await call(
      sandbox,
      expandPath(defaultServicePaths.client, { clientId: 'client_missing' }),
    );
    assert.equal(other.status, 404);
    assert.equal(missing.status, 404);
    assert.deepEqual(await other.json(), await missing.json());
    const form = await requestSession(sandbox, { kind: 'form', formId: fixtureIds.forms.otherOrg });
    assert.equal((await sessionError(form)).code, 'form_not_found');
  });

  test("the other organisation's key sees its own records and not the primary organisation's", async () => {
    const apiKey = fixtureKeys.otherOrg;
    const me = (await (await call(sandbox, defaultServicePaths.me, { apiKey })).json()) as {
      organisationId: string;
    };
    assert.equal(me.organisationId, fixtureIds.otherOrganisation, "GET /me names the key's own");
    const own = await call(
      sandbox,
      expandPath(defaultServicePaths.client, { clientId: fixtureIds.clients.otherOrg }),
      { apiKey },
    );
    assert.equal(own.status, 200);
    const primary = await call(
      sandbox,
      expandPath(defaultServicePaths.client, { clientId: fixtureIds.clients.contoso }),
      { apiKey },
    );
    assert.equal(primary.status, 404);
    const forms = (await (await call(sandbox, defaultServicePaths.forms, { apiKey })).json()) as {
      forms: { id: string }[];
    };
    assert.deepEqual(
      forms.forms.map((f) => f.id),
      [fixtureIds.forms.otherOrg],
    );
    const session = await requestSession(
      sandbox,
      { kind: 'form', formId: fixtureIds.forms.otherOrg },
      { clientId: fixtureIds.clients.otherOrg, userIdentifier: fixtureIds.users.otherOrg },
      { apiKey },
    );
    assert.equal(session.status, 200);
  });

  test("the Core forms are everyone's, but a client override only its client's organisation's", async () => {
    const overridesSeenWith = async (apiKey: string) => {
      const list = (await (
        await call(sandbox, defaultServicePaths.coreForms, { apiKey })
      ).json()) as {
        forms: { clientOverrides: { tenantName: string }[] }[];
      };
      const detail = (await (
        await call(
          sandbox,
          expandPath(defaultServicePaths.coreForm, { slug: fixtureIds.coreForms.mailboxAccess }),
          { apiKey },
        )
      ).json()) as { clientOverrides: { tenantName: string }[] };
      return {
        list: list.forms.flatMap((form) => form.clientOverrides.map((o) => o.tenantName)),
        detail: detail.clientOverrides.map((o) => o.tenantName),
      };
    };
    assert.deepEqual(await overridesSeenWith(sandbox.apiKey), {
      list: ['Fabrikam'],
      detail: ['Fabrikam'],
    });
    assert.deepEqual(await overridesSeenWith(fixtureKeys.otherOrg), { list: [], detail: [] });
  });
});
