import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { FormSessionUser } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import type { Request } from 'express';
import { installCacheClock } from './helpers/cache-clock.js';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const { clients, tenants } = fixtureIds;
const plenty = { perMinute: 1_000_000, burst: 1_000_000 };

/** 20 portal users of two clients, named by clientId or by tenant (in either case). */
function userOf(req: Request): FormSessionUser | undefined {
  const index = Number(req.get('x-user'));
  if (!Number.isInteger(index)) return undefined;
  const userIdentifier = `user${index}@example.com`;
  const tenant = index % 2 === 0 ? tenants.contoso : tenants.fabrikam;
  switch (index % 4) {
    case 0:
      return { clientId: clients.contoso, userIdentifier };
    case 1:
      return { clientId: clients.fabrikam, userIdentifier };
    default:
      return {
        microsoftTenantId: index % 8 < 4 ? tenant : tenant.toUpperCase(),
        userIdentifier,
      };
  }
}

before(async () => {
  sandbox = await startSandbox({ limits: { mints: plenty, reads: plenty } });
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** Upstream reads since the last reset, by route. */
function reads() {
  const stats = sandbox.control.stats();
  const of = (route: string) => stats[`GET ${route}`] ?? 0;
  return {
    forms: of('/api/v1/forms'),
    coreForms: of('/api/v1/core/forms'),
    tenantLookups: of('/api/v1/clients') + of('/api/v1/clients/{clientId}'),
  };
}

describe("the catalogue's upstream reads (docs/contract.md#limits)", () => {
  test('200 concurrent catalogue requests from 20 users cost at most one read of each organisation-wide list and one tenant lookup per user', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: userOf,
    });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        portal.request('/forms', { headers: { 'x-user': String(i % 20) } }),
      ),
    );
    assert.deepEqual(
      answers.filter((answer) => answer.status !== 200).map((answer) => answer.text),
      [],
    );
    const counted = reads();
    console.log(`upstream reads for 200 catalogue requests: ${JSON.stringify(counted)}`);
    assert.ok(counted.forms <= 1, `${counted.forms} reads of the forms list`);
    assert.ok(counted.coreForms <= 1, `${counted.coreForms} reads of the Core forms list`);
    assert.ok(counted.tenantLookups <= 20, `${counted.tenantLookups} tenant lookups`);
  });

  test('the reads are kept for catalogue.cacheTtlMs (30 s by default), then read again; 0 reads every time', async () => {
    const clock = installCacheClock();
    try {
      await using portal = await mountMiddleware(watch, {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        resolveUser: userOf,
      });
      const catalogue = async () =>
        assert.equal((await portal.request('/forms', { headers: { 'x-user': '0' } })).status, 200);
      await catalogue();
      clock.tick(29_000);
      await catalogue();
      assert.deepEqual(reads(), { forms: 1, coreForms: 1, tenantLookups: 1 });
      clock.tick(2_000);
      await catalogue();
      assert.deepEqual(reads(), { forms: 2, coreForms: 2, tenantLookups: 2 });
    } finally {
      clock.uninstall();
    }
    sandbox.control.reset();
    await using uncached = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: userOf,
      catalogue: { cacheTtlMs: 0 },
    });
    for (let i = 0; i < 3; i += 1) {
      assert.equal((await uncached.request('/forms', { headers: { 'x-user': '0' } })).status, 200);
    }
    assert.deepEqual(reads(), { forms: 3, coreForms: 3, tenantLookups: 3 });
  });
});
