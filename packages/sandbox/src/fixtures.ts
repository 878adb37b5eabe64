/**
 * The sandbox's fixed data: two organisations, their API keys, clients, directory users,
 * designer forms and Core forms. Tests and the demo use these names, never the literals.
 */
import type { AuthType, Availability, Client, CoreFormClientOverride } from '@form-embed/protocol';

export const fixtureIds = {
  organisation: 'org_sandbox',
  otherOrganisation: 'org_other',
  clients: {
    contoso: 'client_contoso',
    fabrikam: 'client_fabrikam',
    northwind: 'client_northwind',
    litware: 'client_litware',
    /** A client of the other organisation: 404 / `client_not_found` for the primary key. */
    otherOrg: 'client_other_org',
  },
  tenants: {
    contoso: '11111111-1111-4111-8111-111111111111',
    fabrikam: '22222222-2222-4222-8222-222222222222',
    litware: '44444444-4444-4444-8444-444444444444',
    /** The other organisation's client tenant: `tenant_not_connected` for the primary key. */
    otherOrg: '55555555-5555-4555-8555-555555555555',
    /** A tenant no organisation manages. */
    unknown: '99999999-9999-4999-8999-999999999999',
  },
  users: {
    /** Microsoft UPN in Contoso's directory. */
    adele: 'adele@contoso.example',
    /** Adele's Microsoft object id: the other kind of userIdentifier. */
    adeleObjectId: 'a0a0a0a0-0000-4000-8000-00000000ade1',
    /** Google Workspace user of Contoso (not in the Microsoft directory). */
    alex: 'alex@contoso.example',
    /** Microsoft UPN in Fabrikam's directory. */
    megan: 'megan@fabrikam.example',
    /** Microsoft UPN in Litware's directory, which the connection may not read. */
    lee: 'lee@litware.example',
    /** Not in any directory: `user_not_found`. */
    ghost: 'ghost@contoso.example',
    /** Neither a UPN/email nor a GUID: `invalid_user_identifier`. */
    malformed: 'not an identifier',
    /** An email on a domain no client has: `tenant_not_connected` on a google form. */
    unknownDomain: 'pat@elsewhere.example',
    /** A user of the other organisation's client. */
    otherOrg: 'olivia@other.example',
  },
  forms: {
    microsoft: 'form_microsoft',
    google: 'form_google',
    open: 'form_open',
    password: 'form_password',
    internal: 'form_internal',
    /** The other organisation's form: `form_not_found` for the primary key. */
    otherOrg: 'form_other_org',
    /** No such form anywhere. */
    missing: 'form_missing',
  },
  coreForms: {
    newStarter: 'new-starter',
    mailboxAccess: 'mailbox-access',
    leaver: 'leaver',
    retired: 'retired',
    missing: 'no-such-core-form',
  },
} as const;

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

export type FixtureKeyName = keyof typeof fixtureKeys;

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

export interface FormRecord {
  organisationId: string;
  id: string;
  name: string;
  authType: AuthType;
  listedOnHomepage: boolean;
  updatedAt: string;
}

const updatedAt = '2026-03-02T10:30:00Z';
const { forms: f } = fixtureIds;

export const forms: readonly FormRecord[] = [
  { id: f.microsoft, name: 'IT support request', authType: 'microsoft' },
  { id: f.google, name: 'Workspace access request', authType: 'google' },
  { id: f.open, name: 'Feedback', authType: 'none' },
  { id: f.password, name: 'Board pack', authType: 'password' },
  { id: f.internal, name: 'Technician checklist', authType: 'internal' },
].map((form) => ({
  ...form,
  authType: form.authType as AuthType,
  organisationId: fixtureIds.organisation,
  listedOnHomepage: true,
  updatedAt,
}));

export const otherOrganisationForms: readonly FormRecord[] = [
  {
    organisationId: fixtureIds.otherOrganisation,
    id: f.otherOrg,
    name: 'Other MSP intake',
    authType: 'microsoft',
    listedOnHomepage: true,
    updatedAt,
  },
];

export interface CoreFormRecord {
  slug: string;
  name: string;
  enabled: boolean;
  availability: Availability;
  listedOnHomepage: boolean;
  clientOverrides: CoreFormClientOverride[];
}

const { coreForms: cf } = fixtureIds;

/** The Core forms; every organisation has the same set (Core forms are the service's). */
export const coreForms: readonly CoreFormRecord[] = [
  {
    slug: cf.newStarter,
    name: 'New starter',
    enabled: true,
    availability: 'public',
    listedOnHomepage: true,
    clientOverrides: [],
  },
  {
    slug: cf.mailboxAccess,
    name: 'Mailbox access',
    enabled: true,
    availability: 'both',
    listedOnHomepage: true,
    clientOverrides: [
      { tenantId: t.fabrikam, tenantName: 'Fabrikam', enabled: true, availability: 'internal' },
    ],
  },
  {
    slug: cf.leaver,
    name: 'Leaver',
    enabled: true,
    availability: 'internal',
    listedOnHomepage: false,
    clientOverrides: [],
  },
  {
    slug: cf.retired,
    name: 'Retired request',
    enabled: false,
    availability: 'disabled',
    listedOnHomepage: false,
    clientOverrides: [],
  },
];
