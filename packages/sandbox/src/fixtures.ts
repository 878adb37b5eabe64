/**
 * The sandbox's fixed data: two organisations, their API keys, clients and directory users;
 * the names live in fixture-ids.ts and the forms in fixture-forms.ts.
 */
import type { Client } from '@form-embed/protocol';
import { fixtureIds } from './fixture-ids.js';

export * from './fixture-forms.js';
export { fixtureIds } from './fixture-ids.js';

/**
 * Bearer API keys: fixed prefix `fe_test_`, then an opaque value. `primary` is the key
 * `startSandbox` returns; `otherOrg` belongs to the other organisation.
 */
export const fixtureKeys = {
  primary: 'fe_test_7Qm2xVb9LkP4sT8wZc3N',
  otherOrg: 'fe_test_R5nH1jYd6GfK0aEu2WqX',
  revoked: 'fe_test_revoked_Jt8Vp3LcZ9mB',
  expired: 'fe_test_expired_Xk2Hs7NdQ4wR',
} as const;

/** The name of a fixture API key: `primary`, `otherOrg`, `revoked` or `expired`. */
export type FixtureKeyName = keyof typeof fixtureKeys;

/** The prefix every sandbox API key starts with, `fe_test_`. */
export const API_KEY_PREFIX = 'fe_test_';

export interface ApiKeyRecord {
  organisationId: string;
  status: 'active' | 'revoked' | 'expired';
}

export const apiKeys: ReadonlyMap<string, ApiKeyRecord> = new Map([
  [fixtureKeys.primary, { organisationId: fixtureIds.organisation, status: 'active' }],
  [fixtureKeys.otherOrg, { organisationId: fixtureIds.otherOrganisation, status: 'active' }],
  [fixtureKeys.revoked, { organisationId: fixtureIds.organisation, status: 'revoked' }],
  [fixtureKeys.expired, { organisationId: fixtureIds.organisation, status: 'expired' }],
]);

export interface OrganisationRecord {
  organisationId: string;
  displayName: string;
}

export const organisations: readonly OrganisationRecord[] = [
  { organisationId: fixtureIds.organisation, displayName: 'Sandbox MSP' },
  { organisationId: fixtureIds.otherOrganisation, displayName: 'Other MSP' },
];

export interface ClientRecord extends Client {
  organisationId: string;
  /** The organisation's Microsoft connection may not read this client's users. */
  directoryReadDenied?: boolean;
}

const createdAt = '2026-01-05T09:00:00Z';
const { clients: c, tenants: t } = fixtureIds;

export const clients: readonly ClientRecord[] = [
  {
    organisationId: fixtureIds.organisation,
    id: c.contoso,
    name: 'Contoso',
    environment: 'cloudOnly',
    microsoftTenantId: t.contoso,
    microsoftDomain: 'contoso.example',
    googleWorkspaceDomains: ['contoso.example'],
    integrationMappingIds: { haloId: '101' },
    createdAt,
  },
  {
    organisationId: fixtureIds.organisation,
    id: c.fabrikam,
    name: 'Fabrikam',
    environment: 'cloudAndOnPremSynced',
    microsoftTenantId: t.fabrikam,
    microsoftDomain: 'fabrikam.example',
    googleWorkspaceDomains: ['fabrikam.example'],
    integrationMappingIds: {},
    createdAt,
  },
  {
    organisationId: fixtureIds.organisation,
    id: c.northwind,
    name: 'Northwind',
    environment: 'onPremOnly',
    microsoftTenantId: '',
    microsoftDomain: '',
    googleWorkspaceDomains: [],
    integrationMappingIds: {},
    createdAt,
  },
  {
    organisationId: fixtureIds.organisation,
    id: c.litware,
    name: 'Litware',
    environment: 'cloudOnly',
    microsoftTenantId: t.litware,
    microsoftDomain: 'litware.example',
    googleWorkspaceDomains: ['litware.example'],
    integrationMappingIds: {},
    createdAt,
    directoryReadDenied: true,
  },
  {
    organisationId: fixtureIds.otherOrganisation,
    id: c.otherOrg,
    name: 'Other Co',
    environment: 'cloudOnly',
    microsoftTenantId: t.otherOrg,
    microsoftDomain: 'other.example',
    googleWorkspaceDomains: ['other.example'],
    integrationMappingIds: {},
    createdAt,
  },
];

/** One organisation's clients: another's are not its to list, look up or name in a request. */
export function clientsOf(organisationId: string): ClientRecord[] {
  return clients.filter((c) => c.organisationId === organisationId);
}

export interface DirectoryUser {
  clientId: string;
  directory: 'microsoft' | 'google';
  /** UPN (microsoft) or Workspace email (google). */
  identifier: string;
  objectId?: string;
  displayName: string;
}

export const directoryUsers: readonly DirectoryUser[] = [
  {
    clientId: c.contoso,
    directory: 'microsoft',
    identifier: fixtureIds.users.adele,
    objectId: fixtureIds.users.adeleObjectId,
    displayName: 'Adele Vance',
  },
  {
    clientId: c.contoso,
    directory: 'google',
    identifier: fixtureIds.users.alex,
    displayName: 'Alex Wilber',
  },
  {
    clientId: c.fabrikam,
    directory: 'microsoft',
    identifier: fixtureIds.users.megan,
    displayName: 'Megan Bowen',
  },
  {
    clientId: c.litware,
    directory: 'microsoft',
    identifier: fixtureIds.users.lee,
    displayName: 'Lee Gu',
  },
  {
    clientId: c.otherOrg,
    directory: 'microsoft',
    identifier: fixtureIds.users.otherOrg,
    displayName: 'Olivia Other',
  },
];
