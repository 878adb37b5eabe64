import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { Catalogue, CatalogueEntry } from '@form-embed/protocol';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import { installCacheClock } from './helpers/cache-clock.js';
import {
  type Answer,
  editingAnswers,
  editingFormsList,
  type MountedMiddleware,
  mountMiddleware,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesAtExactly } from './helpers/settles.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
const { forms, coreForms, clients, tenants, users } = fixtureIds;

before(async () => {
  sandbox = await startSandbox();
  portal = await mountMiddleware(watch, { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl });
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await portal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** Adele's menu from the real sandbox: every embeddable designer form and both Core forms. */
const adeleMenu = [
  `form:${forms.microsoft}`,
  `form:${forms.google}`,
  `form:${forms.open}`,
  `core:${coreForms.newStarter}`,
  `core:${coreForms.mailboxAccess}`,
];

function names(answer: Answer): string[] {
  assert.equal(answer.status, 200, answer.text);
  return (answer.body as Catalogue).forms.map((entry) =>
    entry.kind === 'form' ? `form:${entry.formId}` : `core:${entry.slug}`,
  );
}

test('the catalogue lists the embeddable designer forms and the Core forms embeddable for the user, never cached', async () => {
  const answer = await portal.request('/forms', { session: 'adele' });
  assert.deepEqual(names(answer), [
    `form:${forms.microsoft}`,
    `form:${forms.google}`,
    `form:${forms.open}`,
    `core:${coreForms.newStarter}`,
    `core:${coreForms.mailboxAccess}`,
  ]);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
  const entry = (answer.body as Catalogue).forms[0];
  assert.deepEqual(entry, {
    kind: 'form',
    formId: forms.microsoft,
    name: 'IT support request',
    authType: 'microsoft',
  });
});

test("a client override withdraws a Core form for that client's users (found by clientId)", async () => {
  const answer = await portal.request('/forms', { session: 'megan' });
  assert.ok(names(answer).includes(`core:${coreForms.newStarter}`));
  assert.ok(!names(answer).includes(`core:${coreForms.mailboxAccess}`));
});

test("a client override withdraws a Core form for that client's users (found by microsoftTenantId)", async () => {
  await using byTenant = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: () => ({ microsoftTenantId: tenants.fabrikam, userIdentifier: users.megan }),
  });
  const listed = names(await byTenant.request('/forms'));
  assert.ok(listed.includes(`core:${coreForms.newStarter}`));
  assert.ok(!listed.includes(`core:${coreForms.mailboxAccess}`));
});

test('a tenant id is matched without case: the portal and the service may each write a GUID in either case', async () => {
  // The fixture tenant ids are digits only: here Fabrikam's tenant is a GUID with letters, which
  // the service writes (in its client, its clients list and its Core form overrides) in one case
  // and the portal's resolveUser in the other.
  const lettered = 'fabcdef2-2222-4222-8222-22222222abcd';
  const upper = (id: string) => id.toUpperCase();
  const lower = (id: string) => id.toLowerCase();
  for (const [service, portalSide] of [
    [upper, lower],
    [lower, upper],
  ] as const) {
    for (const user of [
      { microsoftTenantId: portalSide(lettered), userIdentifier: users.megan },
      { clientId: clients.fabrikam, userIdentifier: users.megan },
    ]) {
      await using relettered = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        resolveUser: () => user,
        fetch: async (input, init) => {
          const response = await fetch(input, init);
          if (init?.method === 'POST') return response;
          const text = (await response.text()).replaceAll(tenants.fabrikam, service(lettered));
          const headers = new Headers(response.headers);
          headers.delete('content-length');
          headers.delete('content-encoding');
          return new Response(text, { status: response.status, headers });
        },
      });
      const listed = names(await relettered.request('/forms'));
      const seen = `${JSON.stringify(user)}, service ${service(lettered)}`;
      assert.ok(listed.includes(`core:${coreForms.newStarter}`), seen);
      assert.ok(!listed.includes(`core:${coreForms.mailboxAccess}`), seen);
    }
  }
});

test('a form the user’s own fields and client cannot open is not offered, and each one left out is refused when minted: no Core form, and microsoft or google designer forms only as the contract’s FormSessionRequest allows', async () => {
  const designer = [forms.microsoft, forms.google, forms.open];
  const cases: [Record<string, string>, string[]][] = [
    // A client the organisation does not have: client_not_found, whatever the form.
    [{ clientId: clients.otherOrg, userIdentifier: users.otherOrg }, []],
    // Nor one no path can name, which is not read (a read that failed would keep the designer forms).
    [{ clientId: '..', userIdentifier: users.adele }, []],
    [{ clientId: 'c'.repeat(201), userIdentifier: users.adele }, []],
    // A tenant in none of its clients: tenant_not_connected for a microsoft form.
    [
      { microsoftTenantId: tenants.otherOrg, userIdentifier: users.otherOrg },
      [forms.google, forms.open],
    ],
    // Neither a client nor a tenant: a microsoft form would be invalid_request.
    [{ userIdentifier: users.adele }, [forms.google, forms.open]],
    // A client with no Microsoft tenant: client_not_connected.
    [{ clientId: clients.northwind, userIdentifier: users.adele }, [forms.google, forms.open]],
    // Her client, but no identifier: a microsoft or google form would be invalid_request.
    [{ clientId: clients.contoso }, [forms.open]],
    [{ microsoftTenantId: tenants.contoso, userIdentifier: '' }, [forms.open]],
  ];
  for (const [user, offered] of cases) {
    await using stranger = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => user,
    });
    const who = JSON.stringify(user);
    assert.deepEqual(
      names(await stranger.request('/forms')),
      offered.map((id) => `form:${id}`),
      who,
    );
    const leftOut = [
      ...designer
        .filter((id) => !offered.includes(id))
        .map((formId) => ({ kind: 'form', formId }) as const),
      { kind: 'coreForm', slug: coreForms.newStarter } as const,
    ];
    for (const target of leftOut) {
      const answer = await stranger.mint(target);
      assert.ok(answer.status >= 400, `${who} ${JSON.stringify(target)}: ${answer.text}`);
    }
  }
});

test('the catalogue branches on embeddable, never on authType', async () => {
  // The real sandbox's answer with form_open marked not embeddable: it must disappear.
  await using flipped = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: editingFormsList((listed) =>
      listed.map((form) => ({ ...form, embeddable: form.id !== forms.open })),
    ),
  });
  const listed = names(await flipped.request('/forms', { session: 'adele' }));
  assert.ok(!listed.includes(`form:${forms.open}`));
  assert.ok(listed.includes(`form:${forms.password}`), 'embeddable is what counts');
});

test('a form of an authType this release does not know fails neither the catalogue nor a signed-out mint: clients branch on embeddable', async () => {
  // The real sandbox's forms list with one more form, of an authType the contract's enum does not
  // name yet (not embeddable). The contract tells clients to branch on embeddable, not on authType.
  await using grown = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: editingFormsList((listed) => [
      ...listed,
      { ...listed[0], id: 'form_saml', authType: 'saml', embeddable: false },
    ]),
  });
  assert.deepEqual(names(await grown.request('/forms', { session: 'adele' })), adeleMenu);
  // Signed out, the list still tells that a microsoft form needs a user, without a mint.
  const mintsBefore = sandbox.control.stats()['POST /api/v1/forms/{formId}/session'] ?? 0;
  const signedOut = await grown.mint({ kind: 'form', formId: forms.microsoft });
  assert.equal(signedOut.status, 401, signedOut.text);
  assert.equal(SessionErrorBodySchema.parse(signedOut.body).error.code, 'sign_in_required');
  assert.equal(sandbox.control.stats()['POST /api/v1/forms/{formId}/session'] ?? 0, mintsBefore);
});

test('an embeddable form of an authType this release does not know is offered with that authType, when written as the contract writes its values; any other leaves that form out, logged once, and never reaches the page', async () => {
  // A page's menu reads authType (the demo's groups its options by it): it gets a value of the
  // contract's form, never an arbitrary string from a broken or hostile upstream.
  await using grown = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: editingFormsList((listed) => [
      ...listed,
      { ...listed[0], id: 'form_passkey', authType: 'passkey', embeddable: true },
      // camelCase, as the contract writes environment's values (cloudAndOnPremSynced).
      { ...listed[0], id: 'form_entra', authType: 'microsoftEntra', embeddable: true },
      { ...listed[0], id: 'form_spaced', authType: 'Pass Key', embeddable: true },
      { ...listed[0], id: 'form_broken', authType: 'passkey\n', embeddable: true },
    ]),
  });
  const logsBefore = watch.logLines.length;
  const answer = await grown.request('/forms', { session: 'adele' });
  assert.deepEqual(names(answer), [
    ...adeleMenu.slice(0, 3),
    'form:form_passkey',
    'form:form_entra',
    ...adeleMenu.slice(3),
  ]);
  const offered: CatalogueEntry | undefined = (answer.body as Catalogue).forms.find(
    (entry) => entry.kind === 'form' && entry.formId === 'form_passkey',
  );
  const expected: CatalogueEntry = {
    kind: 'form',
    formId: 'form_passkey',
    name: String(offered?.name),
    authType: 'passkey',
  };
  assert.deepEqual(offered, expected);
  const lines = watch.logLines.slice(logsBefore).map((line) => line.message);
  for (const id of ['form_spaced', 'form_broken']) {
    assert.equal(
      lines.filter((line) => line.includes(`leaves out form "${id}"`)).length,
      1,
      JSON.stringify(lines),
    );
  }
});

type ListedCoreForm = Record<string, unknown> & { clientOverrides: Record<string, unknown>[] };

/**
 * The middleware over the real sandbox, whose Core forms list is passed through `edit` first: the
 * list as a later service might answer it.
 */
function mountWithCoreForms(
  edit: (listed: ListedCoreForm[]) => unknown[],
): Promise<MountedMiddleware> {
  return mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    catalogue: { cacheTtlMs: 0 },
    fetch: editingAnswers(
      (url) => url.pathname === '/api/v1/core/forms',
      ({ forms: listed }) => ({ forms: edit(listed) }),
    ),
  });
}

/**
 * `mountWithCoreForms`, with `extra` Core forms after the list's own, each its first with those
 * fields changed.
 */
function mountWithMoreCoreForms(...extra: Record<string, unknown>[]): Promise<MountedMiddleware> {
  return mountWithCoreForms((listed) => [
    ...listed,
    ...extra.map((fields) => ({ ...listed[0], ...fields })),
  ]);
}

test('a Core form of an availability this release does not know costs the menu that form at most: the Core forms are offered by embeddable, the value logged once', async () => {
  // The real sandbox's Core forms list with one more Core form, of an availability the contract's
  // enum does not name yet. The middleware offers a Core form by embeddable (true exactly when
  // public) and its client overrides, never by availability.
  await using grown = await mountWithMoreCoreForms(
    { slug: 'partner-onboarding', availability: 'partners', embeddable: true },
    { slug: 'partner-audit', availability: 'partners', embeddable: false },
  );
  const logsBefore = watch.logLines.length;
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(names(await grown.request('/forms', { session: 'adele' })), [
      ...adeleMenu,
      'core:partner-onboarding',
    ]);
  }
  const told = watch.logLines.slice(logsBefore).filter((line) => /"partners"/.test(line.message));
  assert.equal(told.length, 1, JSON.stringify(watch.logLines.slice(logsBefore)));
  assert.match(told[0]?.message ?? '', /availability "partners"/);
});

test("a client override may leave out any of its fields, which the contract marks none of R: the Core form stays offered, and an override with no availability inherits the form's own", async () => {
  // The real sandbox's Core forms list with its overrides rewritten by `edit`: mailbox-access has
  // one, Fabrikam's, enabled with availability internal (withdrawn for Fabrikam's users).
  const mountWithOverrides = (edit: (override: Record<string, unknown>) => object) =>
    mountWithCoreForms((listed) =>
      listed.map((form) => ({ ...form, clientOverrides: form.clientOverrides.map(edit) })),
    );
  const offersMailboxAccess = async (portal: MountedMiddleware, session: string) =>
    names(await portal.request('/forms', { session })).includes(`core:${coreForms.mailboxAccess}`);

  await using unnamed = await mountWithOverrides(({ tenantName: _, ...override }) => override);
  assert.deepEqual(names(await unnamed.request('/forms', { session: 'adele' })), adeleMenu);
  assert.equal(await offersMailboxAccess(unnamed, 'megan'), false, 'still withdrawn for Fabrikam');

  await using inheriting = await mountWithOverrides(
    ({ tenantName: _, availability: __, ...override }) => override,
  );
  assert.equal(await offersMailboxAccess(inheriting, 'megan'), true, "the form's own: public");
  assert.deepEqual(names(await inheriting.request('/forms', { session: 'adele' })), adeleMenu);
});

test('a Core form the middleware cannot read is left out alone, logged once: never the other Core forms', async () => {
  await using odd = await mountWithMoreCoreForms({ slug: 'half-written', clientOverrides: 'none' });
  const logsBefore = watch.logLines.length;
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(names(await odd.request('/forms', { session: 'adele' })), adeleMenu);
  }
  const told = watch.logLines
    .slice(logsBefore)
    .filter((line) => line.message.includes('"half-written"'));
  assert.equal(told.length, 1, JSON.stringify(watch.logLines.slice(logsBefore)));
  assert.match(told[0]?.message ?? '', /leaves out Core form "half-written".*clientOverrides/);
});

test("a client of an environment this release does not know keeps its users' Core forms (the middleware never reads environment), found by clientId or by tenant, the value logged once", async () => {
  // The real sandbox's clients, Contoso's environment one the contract's enum does not name yet,
  // in the client lookup and in every page of the clients list.
  const newEnvironment = (client: Record<string, unknown>) =>
    client.id === clients.contoso ? { ...client, environment: 'cloudAndEdge' } : client;
  const rewritten = editingAnswers(
    (url) => url.pathname.startsWith('/api/v1/clients'),
    (body) =>
      Array.isArray(body.clients)
        ? { ...body, clients: body.clients.map(newEnvironment) }
        : newEnvironment(body),
  );
  const expected = adeleMenu;
  const logsBefore = watch.logLines.length;
  await using byClient = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    catalogue: { cacheTtlMs: 0 },
    fetch: rewritten,
  });
  assert.deepEqual(names(await byClient.request('/forms', { session: 'adele' })), expected);
  assert.deepEqual(names(await byClient.request('/forms', { session: 'adele' })), expected);
  // By tenant the clients list is read, a page at a time: Contoso's user, and Fabrikam's, whose
  // client is as the contract has it but on the same page.
  for (const [tenant, user, offered] of [
    [tenants.contoso, users.adele, expected],
    [
      tenants.fabrikam,
      users.megan,
      expected.filter((name) => !name.endsWith(coreForms.mailboxAccess)),
    ],
  ] as const) {
    await using byTenant = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      catalogue: { cacheTtlMs: 0 },
      resolveUser: () => ({ microsoftTenantId: tenant, userIdentifier: user }),
      fetch: rewritten,
    });
    assert.deepEqual(names(await byTenant.request('/forms')), offered, user);
  }
  const lines = watch.logLines.slice(logsBefore);
  assert.ok(
    !lines.some((line) => /could not be read|not in the documented shape/.test(line.message)),
    JSON.stringify(lines),
  );
  const told = lines.filter((line) => /"cloudAndEdge"/.test(line.message));
  assert.equal(told.length, 3, `once by each of the three middlewares: ${JSON.stringify(told)}`);
});

test('authorize filters the catalogue', async () => {
  await using vetoed = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    authorize: async (_req, target) =>
      target.kind === 'form'
        ? target.formId !== forms.google
        : target.slug !== coreForms.newStarter,
  });
  assert.deepEqual(names(await vetoed.request('/forms', { session: 'adele' })), [
    `form:${forms.microsoft}`,
    `form:${forms.open}`,
    `core:${coreForms.mailboxAccess}`,
  ]);
});

test('only true allows: an authorize answering anything else truthy (a string, 1, a record) vetoes the mint and the menu', async () => {
  let answer: unknown;
  await using vetoed = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    // What a JavaScript portal may write: a policy lookup's row, or its reason for a refusal.
    authorize: async () => answer as boolean,
  });
  for (const truthy of ['not in the HR group', 1, { allowed: false }]) {
    answer = truthy;
    const before = vetoed.upstream.length;
    const refused = await vetoed.mint({ kind: 'form', formId: forms.open }, { session: 'adele' });
    assert.equal(refused.status, 403, `${JSON.stringify(truthy)}: ${refused.text}`);
    assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'forbidden');
    assert.deepEqual(vetoed.upstream.slice(before), [], 'no mint');
    assert.deepEqual(names(await vetoed.request('/forms', { session: 'adele' })), []);
  }
});

test('authorize vetoes a mint with forbidden, and an authorize that throws is internal_error, logged', async () => {
  await using vetoed = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    authorize: (_req, target) => {
      if (target.kind === 'coreForm') throw new Error('policy store down');
      return target.formId !== forms.google;
    },
  });
  const before = portal.upstream.length + vetoed.upstream.length;
  const refused = await vetoed.mint({ kind: 'form', formId: forms.google }, { session: 'alex' });
  assert.equal(refused.status, 403);
  assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'forbidden');
  const logsBefore = watch.logLines.length;
  const broken = await vetoed.mint(
    { kind: 'coreForm', slug: coreForms.newStarter },
    { session: 'adele' },
  );
  assert.equal(broken.status, 500);
  assert.equal(SessionErrorBodySchema.parse(broken.body).error.code, 'internal_error');
  assert.ok(watch.logLines.slice(logsBefore).some((line) => line.message === 'authorize threw'));
  assert.equal(portal.upstream.length + vetoed.upstream.length, before, 'no upstream request');
  const catalogue = await vetoed.request('/forms', { session: 'adele' });
  assert.equal(catalogue.status, 500);
});

test('a resolveUser that throws or returns something that is not a user is internal_error, logged, with no upstream request', async () => {
  for (const [resolveUser, logged] of [
    [
      () => {
        throw new Error('session store down');
      },
      /resolveUser threw/,
    ],
    [() => ({ userIdentifier: 42 }) as never, /is not a FormSessionRequest user/],
    // The portal's own shape, none of the user's fields: a mistake, not a signed-out visitor.
    [() => ({ tenantId: 't', upn: 'adele@contoso.example' }) as never, /but has tenantId, upn/],
    // A proxy over the portal's session object, whose field throws when read.
    [
      () => ({
        get userIdentifier(): string {
          throw new Error('session expired while read');
        },
      }),
      /reading the user resolveUser returned threw \(a getter of the portal's\)/,
    ],
  ] as const) {
    await using broken = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser,
    });
    const logsBefore = watch.logLines.length;
    const answer = await broken.mint({ kind: 'form', formId: forms.open });
    assert.equal(answer.status, 500);
    assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'internal_error');
    assert.ok(
      watch.logLines.slice(logsBefore).some((line) => logged.test(line.message)),
      `the log says ${logged}`,
    );
    assert.deepEqual(
      broken.upstream.filter((call) => !call.url.endsWith('/api/v1/me')),
      [],
      'nothing but the GET /me of its creation',
    );
  }
});

test('a user field misspelt beside a valid one (userIdentifer, clientID) is warned of, naming the field meant: it is not sent; another key of the portal’s is dropped unsaid', async () => {
  // The fourth column, the key as the line shows it: a line break in it escaped, forging no line.
  for (const [user, misspelt, meant, shown] of [
    [
      { clientId: clients.contoso, userIdentifer: users.adele, displayName: 'Adele' },
      'userIdentifer',
      'userIdentifier',
      'userIdentifer',
    ],
    [
      { clientID: clients.contoso, userIdentifier: users.adele, roles: 'admin' },
      'clientID',
      'clientId',
      'clientID',
    ],
    [
      { microsoftTenantid: tenants.contoso, userIdentifier: users.adele },
      'microsoftTenantid',
      'microsoftTenantId',
      'microsoftTenantid',
    ],
    [
      { clientId: clients.contoso, 'userIdentifie\n': users.adele },
      'userIdentifie\n',
      'userIdentifier',
      'userIdentifie\\u000a',
    ],
  ] as const) {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => user as never,
    });
    const logsBefore = watch.logLines.length;
    const answer = await portal.mint({ kind: 'form', formId: forms.open });
    assert.equal(answer.status, 200, answer.text);
    const sent = portal.upstream.find((call) => call.method === 'POST')?.body as {
      user: Record<string, string>;
    };
    const {
      [misspelt]: _misspelt,
      displayName: _name,
      roles: _roles,
      ...valid
    } = user as Record<string, string>;
    assert.deepEqual(sent.user, valid);
    const said = watch.logLines.slice(logsBefore).map((line) => line.message);
    assert.deepEqual(said, [
      `resolveUser returned a user with ${shown}, which is not sent (FormSessionRequest's user has microsoftTenantId, clientId and userIdentifier): did you mean ${meant}?`,
    ]);
  }
});

for (const name of ['resolveUser', 'authorize'] as const) {
  // The answer is awaited only once it has settled; the test's own bound is the last resort, and
  // t.after uninstalls the clock however the test ends.
  test(`when ${name} never settles, the mint is internal_error once timeoutMs has passed, logged, and none is spent`, {
    timeout: 10_000,
  }, async (t) => {
    const TIMEOUT_MS = 300;
    let reached: () => void = () => {};
    const stuckCalled = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const never = () => {
      reached();
      return new Promise<never>(() => {});
    };
    await using stuck = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      timeoutMs: TIMEOUT_MS,
      [name]: never,
    });
    // Only the middleware's timers: sockets and the portal's server keep real time.
    const clock = FakeTimers.install({
      toFake: ['setTimeout', 'clearTimeout'],
      shouldClearNativeTimers: true,
    });
    t.after(() => clock.uninstall());
    const logsBefore = watch.logLines.length;
    const answered = stuck.mint({ kind: 'form', formId: forms.microsoft }, { session: 'adele' });
    await stuckCalled;
    const answer = await settlesAtExactly(clock, answered, TIMEOUT_MS, 'the mint');
    assert.equal(answer.status, 500, answer.text);
    assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'internal_error');
    const log = `${name} did not answer within timeoutMs (${TIMEOUT_MS} ms)`;
    assert.ok(
      watch.logLines.slice(logsBefore).some((line) => line.message === log),
      log,
    );
    assert.deepEqual(
      stuck.upstream.filter((call) => call.method === 'POST'),
      [],
      'no mint was spent',
    );
  });
}

test('a catalogue the service cannot give is a SessionError, and is not kept: not JSON is internal_error, a reset is unavailable', async () => {
  await using fresh = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
  });
  // Every read of one GET /forms fails (the designer forms list among them), whichever goes first.
  const everyRead = 10;
  sandbox.control.fail({ kind: 'notJson', scope: 'api', count: everyRead });
  const notJson = await fresh.request('/forms', { session: 'adele' });
  assert.equal(notJson.status, 500);
  assert.equal(SessionErrorBodySchema.parse(notJson.body).error.code, 'internal_error');
  sandbox.control.reset();
  sandbox.control.fail({ kind: 'reset', scope: 'api', count: everyRead });
  const reset = await fresh.request('/forms', { session: 'adele' });
  assert.equal(reset.status, 503);
  assert.equal(SessionErrorBodySchema.parse(reset.body).error.code, 'unavailable');
});

test('a form the service lists under an id the mint route would refuse is left out of the menu, logged once', async () => {
  // The service's list with one more form, under an id holding path syntax.
  const withOddForm = editingFormsList((listed) => [
    ...listed,
    { ...listed[0], id: 'form/../x', name: 'Odd' },
    // One the log must not show as it is: longer than a line should carry, with a line break.
    { ...listed[0], id: `${'y'.repeat(300)}\nERROR forged`, name: 'Long' },
  ]);
  await using odd = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: withOddForm,
    catalogue: { cacheTtlMs: 0 },
  });
  const logsBefore = watch.logLines.length;
  for (let i = 0; i < 2; i++) {
    const listed = names(await odd.request('/forms', { session: 'adele' }));
    assert.ok(listed.includes(`form:${forms.microsoft}`), listed.join());
    assert.ok(!listed.some((name) => name.includes('/')), listed.join());
  }
  const lines = watch.logLines.slice(logsBefore);
  const told = lines.filter((line) => line.message.includes('leaves out form "form/../x"'));
  assert.equal(told.length, 1);
  const long = lines.filter((line) => line.message.includes('leaves out form "yyy'));
  assert.equal(long.length, 1);
  assert.doesNotMatch(long[0]?.message ?? '', /\n/);
  assert.match(long[0]?.message ?? '', /… \(313 characters\)/);
  assert.ok((long[0]?.message.length ?? 0) < 300, long[0]?.message);
});

test('when the Core forms cannot be read (a path or shape the contract does not show), the catalogue still lists the designer forms, and says so once in the log', async () => {
  const coreFormsMissing: typeof fetch = (input, init) =>
    String(input).endsWith('/api/v1/core/forms')
      ? Promise.resolve(new Response('{"error":"Not found"}', { status: 404 }))
      : fetch(input, init);
  await using partial = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: coreFormsMissing,
    catalogue: { cacheTtlMs: 0 },
  });
  const logsBefore = watch.logLines.length;
  for (let i = 0; i < 2; i++) {
    assert.deepEqual(names(await partial.request('/forms', { session: 'adele' })), [
      `form:${forms.microsoft}`,
      `form:${forms.google}`,
      `form:${forms.open}`,
    ]);
  }
  const told = watch.logLines
    .slice(logsBefore)
    .filter((line) => /catalogue lists the designer forms only/.test(line.message));
  assert.equal(told.length, 1);
});

test('a Core forms read that fails again after it worked is logged again: once a failure, not once a process', async () => {
  let coreForms: 'missing' | 'read' | 'misshapen' = 'missing';
  await using flaky = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: (input, init) => {
      if (!String(input).endsWith('/api/v1/core/forms') || coreForms === 'read') {
        return fetch(input, init);
      }
      return Promise.resolve(
        coreForms === 'missing'
          ? new Response('{"error":"Not found"}', { status: 404 })
          : Response.json({ forms: 'none' }),
      );
    },
    catalogue: { cacheTtlMs: 0 },
  });
  const logsBefore = watch.logLines.length;
  for (const state of ['missing', 'read', 'misshapen'] as const) {
    coreForms = state;
    assert.equal((await flaky.request('/forms', { session: 'adele' })).status, 200);
  }
  const told = watch.logLines
    .slice(logsBefore)
    .filter((line) => /the Core forms list could not be read/.test(line.message));
  assert.equal(told.length, 2, JSON.stringify(told));
});

test("the same for the user's client; but a Core forms read that says wait (503), or a client read that says the key is refused (401), fails the whole menu, as a designer forms read would", async () => {
  const answering =
    (path: RegExp, status: number): typeof fetch =>
    (input, init) =>
      path.test(String(input))
        ? Promise.resolve(Response.json({ error: 'Nope' }, { status }))
        : fetch(input, init);
  await using clientBroken = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: answering(/\/api\/v1\/clients/, 500),
  });
  await using coreBusy = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: answering(/\/api\/v1\/core\/forms$/, 503),
  });
  const logsBefore = watch.logLines.length;
  assert.deepEqual(names(await clientBroken.request('/forms', { session: 'adele' })), [
    `form:${forms.microsoft}`,
    `form:${forms.google}`,
    `form:${forms.open}`,
  ]);
  assert.ok(
    watch.logLines
      .slice(logsBefore)
      .some((line) => /the user's client could not be read/.test(line.message)),
  );
  const busy = await coreBusy.request('/forms', { session: 'adele' });
  assert.equal(busy.status, 503, busy.text);
  assert.equal(SessionErrorBodySchema.parse(busy.body).error.code, 'unavailable');
  // A key revoked while the forms list is still cached meets the refusal at the client's read.
  await using keyRefused = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: answering(/\/api\/v1\/clients/, 401),
  });
  const refused = await keyRefused.request('/forms', { session: 'adele' });
  assert.equal(refused.status, 401, refused.text);
  assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'invalid_api_key');
  // A user with a clientId and no identifier: their client is read only to leave out one the
  // organisation does not have, and a read that says wait keeps their menu (the open form).
  await using clientBusy = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: () => ({ clientId: clients.contoso }),
    fetch: answering(/\/api\/v1\/clients/, 503),
  });
  assert.deepEqual(names(await clientBusy.request('/forms')), [`form:${forms.open}`]);
  // With a tenant alone and no identifier, nothing is read for the client.
  await using tenantOnly = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: () => ({ microsoftTenantId: tenants.contoso }),
  });
  assert.deepEqual(names(await tenantOnly.request('/forms')), [`form:${forms.open}`]);
  assert.deepEqual(
    tenantOnly.upstream.filter((call) => call.url.includes('/api/v1/clients')),
    [],
  );
});

test('a Core forms list refused in the general form (403 {error}, a key without the scope) is logged with what the service said, not as a wrong path; the menu keeps the designer forms', async () => {
  await using unscoped = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: (input, init) =>
      /\/api\/v1\/core\/forms$/.test(String(input))
        ? Promise.resolve(
            Response.json({ error: 'This key lacks scope core:configure' }, { status: 403 }),
          )
        : fetch(input, init),
  });
  const logsBefore = watch.logLines.length;
  assert.deepEqual(names(await unscoped.request('/forms', { session: 'adele' })), [
    `form:${forms.microsoft}`,
    `form:${forms.google}`,
    `form:${forms.open}`,
  ]);
  const logged = watch.logLines.slice(logsBefore);
  assert.ok(
    logged.some(
      ({ message, details }) =>
        message.includes('with 403: the API key may lack a scope') &&
        details?.said === 'This key lacks scope core:configure',
    ),
    JSON.stringify(logged),
  );
  assert.ok(!logged.some(({ message }) => message.includes('not in the documented shape')));
});

/** A portal whose user, `userIdentifier`, is of the tenant its `x-tenant` header names. */
const tenantByHeader = (userIdentifier: string, upstream: typeof fetch) =>
  mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    catalogue: { cacheTtlMs: 30_000 },
    resolveUser: (req) => ({ microsoftTenantId: req.get('x-tenant'), userIdentifier }),
    fetch: upstream,
  });

/** A service whose every clients page is the sandbox's first, claiming more follow, of a billion. */
const endlessClients: typeof fetch = async (input, init) => {
  const url = new URL(String(input));
  if (url.pathname === '/api/v1/clients') url.searchParams.set('offset', '0');
  const response = await fetch(url, init);
  if (!response.ok || url.pathname !== '/api/v1/clients') return response;
  const page = (await response.json()) as { clients: unknown[] };
  return Response.json({ ...page, total: 1_000_000_000, hasMore: true });
};

test('a clients list that never stops saying hasMore is read for a bounded number of pages, then the user gets no Core form and a warning', async () => {
  await using endless = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    resolveUser: () => ({ microsoftTenantId: tenants.otherOrg, userIdentifier: users.otherOrg }),
    fetch: endlessClients,
  });
  const clientReads = () => sandbox.control.stats()['GET /api/v1/clients'] ?? 0;
  const logsBefore = watch.logLines.length;
  const readsBefore = clientReads();
  const answer = await endless.request('/forms');
  // The tenant not found in the pages read: no microsoft form either (tenant_not_connected).
  assert.deepEqual(names(answer), [`form:${forms.google}`, `form:${forms.open}`]);
  const reads = clientReads() - readsBefore;
  assert.equal(reads, 50, 'fifty pages');
  const asked = endless.upstream
    .filter((call) => call.url.includes('/api/v1/clients'))
    .map((call) => new URL(call.url).searchParams.toString());
  assert.deepEqual(
    asked,
    Array.from({ length: 50 }, (_, page) => `limit=100&offset=${page * 100}`),
    'of a hundred clients each',
  );
  assert.ok(
    watch.logLines.slice(logsBefore).some((line) => line.level === 'warn'),
    'the cap is logged',
  );
});

test('tenants in no client share the reading of the clients list: a second one costs no page, and the pages are read again once cacheTtlMs has passed', async () => {
  const clock = installCacheClock();
  try {
    await using endless = await tenantByHeader(users.otherOrg, endlessClients);
    const clientReads = () =>
      endless.upstream.filter((call) => call.url.includes('/api/v1/clients')).length;
    const menuOf = async (tenant: string) => {
      const answer = await endless.request('/forms', { headers: { 'x-tenant': tenant } });
      assert.equal(answer.status, 200, answer.text);
    };
    await menuOf('00000000-0000-4000-8000-000000000001');
    assert.equal(clientReads(), 50);
    await menuOf('00000000-0000-4000-8000-000000000002');
    await menuOf('00000000-0000-4000-8000-000000000003');
    assert.equal(clientReads(), 50, 'no page read again for the other tenants');
    clock.tick(30_001);
    await menuOf('00000000-0000-4000-8000-000000000004');
    assert.equal(clientReads(), 100, 'read again once the pages are older than cacheTtlMs');
  } finally {
    clock.uninstall();
  }
});

/** 150 clients made from the sandbox's first, each of a tenant of its own, Fabrikam's at `at`. */
async function clientsWithFabrikamAt(at: number) {
  const real = (await (
    await fetch(`${sandbox.baseUrl}/api/v1/clients?limit=100&offset=0`, {
      headers: { authorization: `Bearer ${sandbox.apiKey}` },
    })
  ).json()) as { clients: { id: string; microsoftTenantId: string }[] };
  const fabrikam = real.clients.find((client) => client.microsoftTenantId === tenants.fabrikam);
  const filler = real.clients.find((client) => client !== fabrikam);
  assert.ok(fabrikam && filler);
  const list = Array.from({ length: 150 }, (_, index) => ({
    ...filler,
    id: `client_pad_${index}`,
    microsoftTenantId: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
  }));
  list[at] = { ...filler, ...fabrikam };
  return list;
}

test('a client in the list throughout is found when another was removed between the pages kept: a page whose total differs has the list read anew', async () => {
  const clock = installCacheClock();
  try {
    // 150 clients, Fabrikam's at index 100: on the second page until one before it goes.
    let list = await clientsWithFabrikamAt(100);
    await using portal = await tenantByHeader(users.megan, async (input, init) => {
      const url = new URL(String(input));
      if (url.pathname !== '/api/v1/clients') return fetch(input, init);
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const clients = list.slice(offset, offset + limit);
      return Response.json({
        clients,
        total: list.length,
        hasMore: offset + limit < list.length,
      });
    });
    const coreForms = async (tenant: string) => {
      const answer = await portal.request('/forms', { headers: { 'x-tenant': tenant } });
      assert.equal(answer.status, 200, answer.text);
      return names(answer).filter((name) => name.startsWith('core:'));
    };
    // A user of a client on the first page: that page is read, and kept.
    await coreForms(list[5]?.microsoftTenantId ?? '');
    clock.tick(20_000);
    list = list.slice(1); // Fabrikam's client is now at index 99, on the first page
    clock.tick(5_000);
    assert.notDeepEqual(await coreForms(tenants.fabrikam), [], 'Fabrikam’s Core forms');
  } finally {
    clock.uninstall();
  }
});

// The contract's pages hold at most the 100 asked for; one that holds more is read whole, not
// cut at 100, which lost the tenants past it without a word.
test('a clients page longer than the 100 asked for is read whole: a tenant at its 121st client is found', async () => {
  const list = await clientsWithFabrikamAt(120);
  await using portal = await tenantByHeader(users.megan, async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname !== '/api/v1/clients') return fetch(input, init);
    return Response.json({ clients: list, total: list.length, hasMore: false });
  });
  const answer = await portal.request('/forms', { headers: { 'x-tenant': tenants.fabrikam } });
  assert.equal(answer.status, 200, answer.text);
  assert.notDeepEqual(
    names(answer).filter((name) => name.startsWith('core:')),
    [],
    'Fabrikam’s Core forms',
  );
});

test('a clients list that says hasMore past its total, or on an empty page, or says no more, stops there', async () => {
  for (const lie of [
    { total: 1 },
    { total: 100 },
    { clients: [], total: 1_000_000_000 },
    { hasMore: false, total: 1_000_000_000 },
  ]) {
    await using liar = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => ({ microsoftTenantId: tenants.otherOrg, userIdentifier: users.otherOrg }),
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (!response.ok || new URL(String(input)).pathname !== '/api/v1/clients') {
          return response;
        }
        const page = (await response.json()) as { clients: unknown[] };
        return Response.json({ ...page, hasMore: true, ...lie });
      },
    });
    const reads = () => liar.upstream.filter((call) => call.url.includes('/api/v1/clients'));
    // A tenant in no client: the google and the open form (docs/contract.md#designer-forms).
    assert.equal(names(await liar.request('/forms')).length, 2, JSON.stringify(lie));
    assert.equal(reads().length, 1, JSON.stringify(lie));
  }
});

// A hostile or broken service's clients pages, each client with 500 mappings: the pages
// are kept for cacheTtlMs, and whole records held some 190 MiB for the 50 pages of one lookup.
test("the clients pages kept for a tenant's lookup hold its tenants, not each client's whole record", async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const [template] = (
    (await (
      await fetch(`${sandbox.baseUrl}/api/v1/clients?limit=1&offset=0`, {
        headers: { authorization: `Bearer ${sandbox.apiKey}` },
      })
    ).json()) as { clients: Record<string, unknown>[] }
  ).clients;
  const mappings = (page: number, index: number) =>
    Object.fromEntries(
      Array.from({ length: 500 }, (_, key) => [`m${page}-${index}-${key}`, `v${key}`]),
    );
  await using heavy = await tenantByHeader(users.otherOrg, async (input, init) => {
    const url = new URL(String(input));
    if (url.pathname !== '/api/v1/clients') return fetch(input, init);
    const page = Number(url.searchParams.get('offset')) / 100;
    const clients = Array.from({ length: 40 }, (_, index) => ({
      ...template,
      id: `client_${page}_${index}`,
      integrationMappingIds: mappings(page, index),
    }));
    return Response.json({ clients, total: 600, hasMore: page < 5 });
  });
  gc();
  const before = process.memoryUsage().heapUsed;
  const answer = await heavy.request('/forms', { headers: { 'x-tenant': tenants.otherOrg } });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(heavy.upstream.filter((call) => call.url.includes('/api/v1/clients')).length, 6);
  gc();
  const grown = process.memoryUsage().heapUsed - before;
  // Whole records: about 2.5 MiB a page here (15 MiB in all); tenant ids: none to speak of.
  assert.ok(grown < 6 * 2 ** 20, `${(grown / 2 ** 20).toFixed(1)} MiB kept`);
});
