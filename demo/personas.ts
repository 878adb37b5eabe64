import type { FormSessionUser } from '@form-embed/protocol';
import { fixtureIds } from '@form-embed/sandbox';

/**
 * The people a tester can sign in as on the sandbox. In a real portal `resolveUser` reads the
 * signed-in user from the portal's own session; here a cookie names one of these.
 */
export interface Persona {
  label: string;
  /**
   * Who this person is and what the sandbox answers for them, shown under the choice: the label
   * stays short enough for the console's side panel.
   */
  expect: string;
  user: FormSessionUser | undefined;
}

const { clients, tenants, users } = fixtureIds;

export const personas = {
  adele: {
    label: 'Adele Vance, Contoso',
    expect: 'Microsoft account: signs in on Microsoft and Core forms',
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.adele },
  },
  alex: {
    label: 'Alex Wilber, Contoso',
    expect: 'Google Workspace account: signs in on Google forms',
    user: { clientId: clients.contoso, userIdentifier: users.alex },
  },
  megan: {
    label: 'Megan Bowen, Fabrikam',
    expect: 'Microsoft account: Core form "Mailbox access" is withdrawn for Fabrikam',
    user: { clientId: clients.fabrikam, userIdentifier: users.megan },
  },
  anonymous: {
    label: 'Nobody signed in',
    expect: 'only the open form, with no handle',
    user: undefined,
  },
  ghost: {
    label: 'Ghost, Contoso',
    expect: 'not in the directory: user_not_found',
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.ghost },
  },
  lee: {
    label: 'Lee Gu, Litware',
    expect: 'the connection may not read users: microsoft_permission_denied',
    user: { clientId: clients.litware, userIdentifier: users.lee },
  },
  northwind: {
    label: 'Someone at Northwind',
    expect: 'a client with no Microsoft tenant: client_not_connected',
    user: { clientId: clients.northwind, userIdentifier: users.sam },
  },
  stranger: {
    label: 'Someone at another tenant',
    expect: 'a tenant nobody manages: tenant_not_connected',
    user: { microsoftTenantId: tenants.unknown, userIdentifier: users.unknownDomain },
  },
} satisfies Record<string, Persona>;

export type PersonaId = keyof typeof personas;

export const defaultPersona: PersonaId = 'adele';

export function isPersonaId(value: unknown): value is PersonaId {
  return typeof value === 'string' && Object.hasOwn(personas, value);
}
