/**
 * The names of the sandbox's fixed data (organisations, clients, tenants, users, forms). Code
 * that can import them uses these names; the demo's browser pages, e2e form fields and the
 * bench spell out a few ids (`form_microsoft`, `form_open`, `new-starter`) as a user would.
 */

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
    /** A portal user of Northwind, a client with no directory: the `portal` provider. */
    sam: 'sam@northwind.example',
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
