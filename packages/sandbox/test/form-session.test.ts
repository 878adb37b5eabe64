import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type FormSessionUser, type FormTarget, isOnEmbedOrigin } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '../src/index.js';
import {
  call,
  mintSession,
  requestSession,
  sandboxFor,
  sessionError,
  sessionPath,
} from './helpers.js';

const { forms, coreForms, clients, tenants, users } = fixtureIds;
const microsoftForm = { kind: 'form', formId: forms.microsoft } as const;
const adele = { microsoftTenantId: tenants.contoso, userIdentifier: users.adele };

describe('form-session rules', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  test('a microsoft form with a tenant and a UPN gets provider microsoft, a handle and expiresIn 120', async () => {
    const session = await mintSession(sandbox, microsoftForm, {
      microsoftTenantId: tenants.contoso,
      userIdentifier: users.adele,
    });
    assert.equal(session.provider, 'microsoft');
    assert.equal(session.expiresIn, 120);
    assert.ok(session.formSessionHandle);
    assert.ok(isOnEmbedOrigin(session.embedUrl, sandbox.formsOrigin));
    assert.equal(new URL(session.embedUrl).searchParams.get('handle'), session.formSessionHandle);
  });

  test('a microsoft form also takes a clientId instead of the tenant, and an object id as userIdentifier', async () => {
    const session = await mintSession(sandbox, microsoftForm, {
      clientId: clients.contoso,
      userIdentifier: users.adeleObjectId,
    });
    assert.equal(session.provider, 'microsoft');
  });

  test('a microsoft form without a tenant or clientId, or without a userIdentifier, is invalid_request', async () => {
    for (const user of [
      undefined,
      { userIdentifier: users.adele },
      { microsoftTenantId: tenants.contoso },
      { clientId: clients.contoso },
    ]) {
      const response = await requestSession(sandbox, microsoftForm, user);
      assert.equal(response.status, 400);
      assert.equal((await sessionError(response)).code, 'invalid_request');
    }
  });

  test('a google form takes a Workspace email whose domain belongs to a client', async () => {
    const session = await mintSession(
      sandbox,
      { kind: 'form', formId: forms.google },
      { userIdentifier: users.alex },
    );
    assert.equal(session.provider, 'google');
    assert.ok(session.formSessionHandle);
    const stranger = await requestSession(
      sandbox,
      { kind: 'form', formId: forms.google },
      { userIdentifier: users.unknownDomain },
    );
    assert.equal((await sessionError(stranger)).code, 'tenant_not_connected');
  });

  test('a body that is not sent as application/json is invalid_request; no body is no user', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await call(sandbox, sessionPath(microsoftForm), {
        method: 'POST',
        body: JSON.stringify({
          user: { microsoftTenantId: tenants.contoso, userIdentifier: users.adele },
        }),
        headers: { 'content-type': type },
      });
      assert.equal(answer.status, 400, type);
      assert.equal((await sessionError(answer)).code, 'invalid_request', type);
    }
    const open = await call(sandbox, sessionPath({ kind: 'form', formId: forms.open }), {
      method: 'POST',
    });
    assert.equal(open.status, 200, 'an empty body needs no Content-Type');
  });

  test('a google form ignores the tenant but not the client: a clientId not of this organisation is client_not_found, one whose workspace is not the email’s user_not_found', async () => {
    const google = { kind: 'form', formId: forms.google } as const;
    const withTenant = await mintSession(sandbox, google, {
      microsoftTenantId: tenants.unknown,
      userIdentifier: users.alex,
    });
    assert.equal(withTenant.provider, 'google');
    for (const clientId of [clients.otherOrg, 'client_missing']) {
      const answer = await requestSession(sandbox, google, {
        clientId,
        userIdentifier: users.alex,
      });
      assert.equal(answer.status, 404, clientId);
      assert.equal((await sessionError(answer)).code, 'client_not_found', clientId);
    }
    const ownClient = await mintSession(sandbox, google, {
      clientId: clients.contoso,
      userIdentifier: users.alex,
    });
    assert.equal(ownClient.provider, 'google');
    const otherClient = await requestSession(sandbox, google, {
      clientId: clients.fabrikam,
      userIdentifier: users.alex,
    });
    assert.equal(otherClient.status, 404);
    assert.equal((await sessionError(otherClient)).code, 'user_not_found');
  });

  test('a none form with no user gets provider none, no handle and expiresIn 0', async () => {
    const session = await mintSession(sandbox, { kind: 'form', formId: forms.open });
    assert.deepEqual(Object.keys(session).sort(), ['embedUrl', 'expiresIn', 'provider']);
    assert.equal(session.provider, 'none');
    assert.equal(session.expiresIn, 0);
    assert.ok(isOnEmbedOrigin(session.embedUrl, sandbox.formsOrigin));
    assert.equal(new URL(session.embedUrl).search, '');
  });

  test('a none form with a user gets provider portal and a handle', async () => {
    const session = await mintSession(
      sandbox,
      { kind: 'form', formId: forms.open },
      { clientId: clients.northwind, userIdentifier: users.sam },
    );
    assert.equal(session.provider, 'portal');
    assert.equal(session.expiresIn, 120);
    assert.ok(session.formSessionHandle);
    // A user is a user with any one field: only a none form with no user goes without a handle.
    const tenantOnly = await mintSession(
      sandbox,
      { kind: 'form', formId: forms.open },
      { microsoftTenantId: tenants.contoso },
    );
    assert.equal(tenantOnly.provider, 'portal');
    assert.ok(tenantOnly.formSessionHandle);
  });

  test('UPNs and Workspace e-mails are read as the providers read them, in any case', async () => {
    const microsoft = await mintSession(sandbox, microsoftForm, {
      microsoftTenantId: tenants.contoso,
      userIdentifier: users.adele.toUpperCase(),
    });
    assert.equal(microsoft.provider, 'microsoft');
    const google = await mintSession(
      sandbox,
      { kind: 'form', formId: forms.google },
      { userIdentifier: users.alex.toUpperCase() },
    );
    assert.equal(google.provider, 'google');
  });

  test('password and internal forms refuse with form_session_unsupported', async () => {
    for (const formId of [forms.password, forms.internal]) {
      const response = await requestSession(sandbox, { kind: 'form', formId });
      assert.equal(response.status, 400);
      assert.equal((await sessionError(response)).code, 'form_session_unsupported');
    }
  });

  test("a public Core form needs the user's client and answers an embedUrl on coreFormsOrigin", async () => {
    const session = await mintSession(
      sandbox,
      { kind: 'coreForm', slug: coreForms.newStarter },
      { microsoftTenantId: tenants.contoso, userIdentifier: users.adele },
    );
    assert.equal(session.provider, 'microsoft');
    assert.ok(isOnEmbedOrigin(session.embedUrl, sandbox.coreFormsOrigin));
    const noUser = await requestSession(sandbox, { kind: 'coreForm', slug: coreForms.newStarter });
    assert.equal((await sessionError(noUser)).code, 'invalid_request');
  });

  test('Core forms honour client overrides: the form Fabrikam withdraws still works for Contoso', async () => {
    const target = { kind: 'coreForm', slug: coreForms.mailboxAccess } as const;
    const contoso = await mintSession(sandbox, target, {
      clientId: clients.contoso,
      userIdentifier: users.adele,
    });
    assert.equal(contoso.provider, 'microsoft');
    const fabrikam = await requestSession(sandbox, target, {
      microsoftTenantId: tenants.fabrikam,
      userIdentifier: users.megan,
    });
    assert.equal((await sessionError(fabrikam)).code, 'client_not_entitled');
  });

  test('a malformed body is invalid_request naming the problem', async () => {
    const cases: Record<string, RegExp> = {
      'not json': /not valid JSON/,
      '[1,2]': /JSON object/,
      '"user"': /JSON object/,
      '{"user": 5}': /^user\b/,
      '{"user": {"userIdentifier": 7}}': /^user\.userIdentifier\b/,
      '{"user": {"clientId": ["a"]}}': /^user\.clientId\b/,
    };
    for (const [body, message] of Object.entries(cases)) {
      const response = await requestSession(sandbox, microsoftForm, undefined, { body });
      assert.equal(response.status, 400, body);
      const error = await sessionError(response);
      assert.equal(error.code, 'invalid_request', body);
      assert.match(error.message, message, body);
    }
  });

  test('every form-session answer carries Cache-Control: no-store', async () => {
    const ok = await requestSession(sandbox, { kind: 'form', formId: forms.open });
    assert.equal(ok.headers.get('cache-control'), 'no-store');
    const refused = await requestSession(sandbox, { kind: 'form', formId: forms.password });
    assert.equal(refused.headers.get('cache-control'), 'no-store');
  });
});

describe('form-session answers are never cached', () => {
  test('Cache-Control: no-store is on every answer of both form-session endpoints, refusals and faults included', async (t) => {
    const sandbox = await sandboxFor(t);
    const newStarter = { kind: 'coreForm', slug: coreForms.newStarter } as const;
    const answers: Record<string, Response> = {};
    for (const target of [microsoftForm, newStarter]) {
      answers[`401 ${target.kind}`] = await requestSession(sandbox, target, adele, {
        apiKey: null,
      });
      answers[`400 body ${target.kind}`] = await call(sandbox, sessionPath(target), {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'text/plain; charset=foo' },
      });
    }
    answers['404 form'] = await requestSession(sandbox, { kind: 'form', formId: 'form_missing' });
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    answers['error fault'] = await requestSession(sandbox, microsoftForm, adele);
    sandbox.control.fail({ kind: 'notJson', status: 502, scope: 'session' });
    answers['notJson fault'] = await requestSession(sandbox, microsoftForm, adele);
    await sandbox.control.exhaustRateLimit('mints');
    answers['429 rate_limited'] = await requestSession(sandbox, newStarter, adele);
    for (const [name, response] of Object.entries(answers)) {
      assert.ok(response.status >= 400, `${name}: ${response.status}`);
      assert.equal(response.headers.get('cache-control'), 'no-store', name);
      await response.body?.cancel();
    }
  });
});

describe("the README's input-to-outcome table: the inputs no scenario sends", () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  const google = { kind: 'form', formId: forms.google } as const;
  const open = { kind: 'form', formId: forms.open } as const;
  const rows: [string, FormTarget, FormSessionUser | undefined, string, number][] = [
    [
      'a microsoft form with a tenant that is not a GUID',
      microsoftForm,
      { microsoftTenantId: 'contoso', userIdentifier: users.adele },
      'invalid_request',
      400,
    ],
    [
      'a microsoft form with a tenant and a clientId that disagree',
      microsoftForm,
      {
        microsoftTenantId: tenants.fabrikam,
        clientId: clients.contoso,
        userIdentifier: users.adele,
      },
      'invalid_request',
      400,
    ],
    [
      'a google form without userIdentifier',
      google,
      { clientId: clients.contoso },
      'invalid_request',
      400,
    ],
    ['a google form with no user', google, undefined, 'invalid_request', 400],
    [
      "a none form with another organisation's clientId",
      open,
      { clientId: clients.otherOrg, userIdentifier: users.sam },
      'client_not_found',
      404,
    ],
    [
      'a none form with an unknown clientId',
      open,
      { clientId: 'client_missing' },
      'client_not_found',
      404,
    ],
    [
      'a missing designer form',
      { kind: 'form', formId: forms.missing },
      undefined,
      'form_not_found',
      404,
    ],
    [
      'an unknown Core slug',
      { kind: 'coreForm', slug: coreForms.missing },
      adele,
      'form_not_found',
      404,
    ],
    [
      'a disabled Core form (retired)',
      { kind: 'coreForm', slug: coreForms.retired },
      adele,
      'form_unpublished',
      400,
    ],
    [
      "another organisation's client tenant",
      microsoftForm,
      { microsoftTenantId: tenants.otherOrg, userIdentifier: users.adele },
      'tenant_not_connected',
      403,
    ],
    [
      "a Microsoft user under another client's tenant (adele under Fabrikam)",
      microsoftForm,
      { microsoftTenantId: tenants.fabrikam, userIdentifier: users.adele },
      'user_not_found',
      404,
    ],
    [
      'a google form with a userIdentifier that is not an e-mail',
      google,
      { userIdentifier: 'not an identifier' },
      'invalid_user_identifier',
      400,
    ],
    [
      'a Google user (alex) on a microsoft form',
      microsoftForm,
      { microsoftTenantId: tenants.contoso, userIdentifier: users.alex },
      'user_not_found',
      404,
    ],
  ];
  for (const [input, target, user, code, status] of rows) {
    test(`${input}: ${status} ${code}`, async () => {
      const response = await requestSession(sandbox, target, user);
      assert.equal(response.status, status);
      assert.equal((await sessionError(response)).code, code);
    });
  }
});
