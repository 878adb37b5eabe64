import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  ClientSchema,
  CoreFormSchema,
  canonicalOrigin,
  expandPath,
  FormSchema,
  isOnEmbedOrigin,
  OrganisationSchema,
  PlainErrorBodySchema,
  defaultServicePaths as paths,
} from '@form-embed/protocol';
import { z } from 'zod';
import { fixtureIds, type Sandbox, startSandbox } from '../src/index.js';
import { call, requestSession, sessionError } from './helpers.js';

const ClientPageSchema = z.object({
  clients: z.array(ClientSchema),
  total: z.int(),
  hasMore: z.boolean(),
});

describe('catalogue endpoints', () => {
  let sandbox: Sandbox;
  before(async () => {
    sandbox = await startSandbox();
  });
  after(() => sandbox.close());

  const get = async (path: string) => {
    const response = await call(sandbox, path);
    return { response, body: (await response.json()) as unknown };
  };

  test('GET /me answers the Organisation with two canonical embed origins, distinct from each other and the API', async () => {
    const { response, body } = await get(paths.me);
    assert.equal(response.status, 200);
    const org = OrganisationSchema.parse(body);
    assert.equal(org.organisationId, fixtureIds.organisation);
    assert.equal(org.formsOrigin, sandbox.formsOrigin);
    assert.equal(org.coreFormsOrigin, sandbox.coreFormsOrigin);
    // As written, not as the schema brings them to canonical form.
    const written = body as { formsOrigin: string; coreFormsOrigin: string };
    for (const origin of [written.formsOrigin, written.coreFormsOrigin]) {
      assert.equal(canonicalOrigin(origin), origin);
      assert.match(origin, /^http:\/\/127\.0\.0\.1:\d+$/);
    }
    assert.equal(new Set([org.formsOrigin, org.coreFormsOrigin, sandbox.baseUrl]).size, 3);
  });

  test('GET /clients pages with limit and offset, and answers {clients, total, hasMore}: the default page (50) holds the four fixture clients', async () => {
    const all = ClientPageSchema.parse((await get(paths.clients)).body);
    assert.deepEqual(
      all.clients.map((c) => c.id),
      [
        fixtureIds.clients.contoso,
        fixtureIds.clients.fabrikam,
        fixtureIds.clients.northwind,
        fixtureIds.clients.litware,
      ],
    );
    assert.equal(all.total, 4);
    assert.equal(all.hasMore, false);
    const first = ClientPageSchema.parse((await get(`${paths.clients}?limit=2&offset=1`)).body);
    assert.deepEqual(
      first.clients.map((c) => c.id),
      [fixtureIds.clients.fabrikam, fixtureIds.clients.northwind],
    );
    assert.equal(first.total, 4);
    assert.equal(first.hasMore, true);
    // A page that ends on the last client has no more; offset 0 is the least there is.
    for (const query of ['limit=2&offset=2', 'limit=4&offset=0']) {
      const { response, body } = await get(`${paths.clients}?${query}`);
      assert.equal(response.status, 200, query);
      const page = ClientPageSchema.parse(body);
      assert.equal(page.hasMore, false, query);
      assert.equal(page.clients.at(-1)?.id, fixtureIds.clients.litware, query);
    }
    // Past the end, however far (the contract bounds offset below only): an empty page.
    for (const offset of ['10', '99999999999999999999']) {
      const past = ClientPageSchema.parse((await get(`${paths.clients}?offset=${offset}`)).body);
      assert.deepEqual(past, { clients: [], total: 4, hasMore: false }, offset);
    }
  });

  test('GET /clients answers 400 {error} naming the bad parameter and what is wrong with it', async () => {
    const cases = {
      'limit=0': 'limit must be between 1 and 100',
      'limit=101': 'limit must be between 1 and 100',
      'limit=-1': 'limit must be between 1 and 100',
      'limit=abc': 'limit must be an integer',
      'limit=1.5': 'limit must be an integer',
      'offset=-1': 'offset must be at least 0',
      'offset=x': 'offset must be an integer',
      'limit=1&limit=2': 'limit must be an integer',
    };
    for (const [query, problem] of Object.entries(cases)) {
      const { response, body } = await get(`${paths.clients}?${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(PlainErrorBodySchema.parse(body).error, problem, query);
    }
  });

  test('GET /clients/{id} answers the Client, 404 {error} when unknown', async () => {
    const { body } = await get(expandPath(paths.client, { clientId: fixtureIds.clients.contoso }));
    const client = ClientSchema.parse(body);
    assert.equal(client.microsoftTenantId, fixtureIds.tenants.contoso);
    assert.deepEqual(client.googleWorkspaceDomains, ['contoso.example']);
    const northwind = ClientSchema.parse(
      (await get(expandPath(paths.client, { clientId: fixtureIds.clients.northwind }))).body,
    );
    assert.equal(northwind.microsoftTenantId, '');
    // The contract's fields and no others: nothing of the sandbox's own records leaks out.
    const contractFields = [
      'createdAt',
      'environment',
      'googleWorkspaceDomains',
      'id',
      'integrationMappingIds',
      'microsoftDomain',
      'microsoftTenantId',
      'name',
    ];
    const litware = await get(expandPath(paths.client, { clientId: fixtureIds.clients.litware }));
    assert.deepEqual(Object.keys(litware.body as object).sort(), contractFields);
    const listed = (await get(paths.clients)).body as { clients: object[] };
    for (const item of listed.clients) assert.deepEqual(Object.keys(item).sort(), contractFields);
    const missing = await get(expandPath(paths.client, { clientId: 'nope' }));
    assert.equal(missing.response.status, 404);
    PlainErrorBodySchema.parse(missing.body);
  });

  test('GET /forms computes embeddable from authType (microsoft, google, none) and shareUrl begins with formsOrigin', async () => {
    const { body } = await get(paths.forms);
    const forms = z.object({ forms: z.array(FormSchema) }).parse(body).forms;
    assert.equal(forms.length, 5);
    for (const form of forms) {
      assert.equal(
        form.embeddable,
        ['microsoft', 'google', 'none'].includes(form.authType),
        form.id,
      );
      assert.ok(isOnEmbedOrigin(form.shareUrl, sandbox.formsOrigin), form.shareUrl);
    }
  });

  test('GET /core/forms and /core/forms/{slug} answer CoreForms, embeddable exactly when public', async () => {
    const { body } = await get(paths.coreForms);
    const list = z.object({ forms: z.array(CoreFormSchema) }).parse(body).forms;
    assert.deepEqual(
      list.map((f) => [f.slug, f.embeddable]),
      [
        [fixtureIds.coreForms.newStarter, true],
        [fixtureIds.coreForms.mailboxAccess, true],
        [fixtureIds.coreForms.leaver, false],
        [fixtureIds.coreForms.retired, false],
      ],
    );
    assert.deepEqual(
      list.map((f) => [f.slug, f.internal, f.public]),
      [
        [fixtureIds.coreForms.newStarter, false, true],
        [fixtureIds.coreForms.mailboxAccess, true, true],
        [fixtureIds.coreForms.leaver, true, false],
        [fixtureIds.coreForms.retired, false, false],
      ],
      'availability both is internal and public',
    );
    for (const form of list) {
      assert.equal(form.embeddable, form.public);
      if (form.publicUrl) assert.ok(isOnEmbedOrigin(form.publicUrl, sandbox.coreFormsOrigin));
    }
    const detail = CoreFormSchema.parse(
      (await get(expandPath(paths.coreForm, { slug: fixtureIds.coreForms.mailboxAccess }))).body,
    );
    assert.deepEqual(detail.clientOverrides, [
      {
        tenantId: fixtureIds.tenants.fabrikam,
        tenantName: 'Fabrikam',
        enabled: true,
        availability: 'internal',
      },
    ]);
    const missing = await get(expandPath(paths.coreForm, { slug: fixtureIds.coreForms.missing }));
    assert.equal(missing.response.status, 404);
    PlainErrorBodySchema.parse(missing.body);
  });

  // The contract does not say how slugs compare; the sandbox matches them exactly, as a path
  // segment is, so a slug written in another case is another, unknown, slug.
  test('a Core form slug is matched exactly: the same slug in upper case is unknown (404)', async () => {
    const slug = fixtureIds.coreForms.newStarter.toUpperCase();
    assert.notEqual(slug, fixtureIds.coreForms.newStarter);
    const detail = await get(expandPath(paths.coreForm, { slug }));
    assert.equal(detail.response.status, 404);
    assert.deepEqual(detail.body, { error: 'No such Core form.' });
    const mint = await requestSession(sandbox, { kind: 'coreForm', slug });
    assert.equal(mint.status, 404);
    assert.equal((await sessionError(mint)).code, 'form_not_found');
  });
});
