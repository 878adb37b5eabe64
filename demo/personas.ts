import type { FormSessionUser } from '@form-embed/protocol';
import { fixtureIds } from '@form-embed/sandbox';

/**
 * The people a tester can sign in as on the sandbox. In a real portal `resolveUser` reads the
 * signed-in user from the portal's own session; here a cookie names one of these.
 */
export interface Persona {
  label: string;
  /** What the sandbox answers for this person, shown next to the choice. */
  expect: string;
  user: FormSessionUser | undefined;
}

const { clients, tenants, users } = fixtureIds;

export const personas = {
  adele: {
    label: 'Adele Vance, Contoso (Microsoft)',
    expect: 'signs in on Microsoft and Core forms',
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.adele },
  },
  alex: {
    label: 'Alex Wilber, Contoso (Google Workspace)',
    expect: 'signs in on Google forms',
    user: { clientId: clients.contoso, userIdentifier: users.alex },
  },
  megan: {
    label: 'Megan Bowen, Fabrikam (Microsoft)',
    expect: 'Core form "Mailbox access" is withdrawn for Fabrikam',
    user: { clientId: clients.fabrikam, userIdentifier: users.megan },
  },
  anonymous: {
    label: 'Nobody signed in',
    expect: 'only the open form, with no handle',
    user: undefined,
  },
  ghost: {
    label: 'Ghost, Contoso (not in the directory)',
    expect: 'user_not_found',
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.ghost },
  },
  lee: {
    label: 'Lee Gu, Litware (connection may not read users)',
    expect: 'microsoft_permission_denied',
    user: { clientId: clients.litware, userIdentifier: users.lee },
  },
  northwind: {
    label: 'Someone at Northwind (client with no Microsoft tenant)',
    expect: 'client_not_connected',
    user: { clientId: clients.northwind, userIdentifier: users.sam },
  },
  stranger: {
    label: 'Someone from a tenant nobody manages',
    expect: 'tenant_not_connected',
    user: { microsoftTenantId: tenants.unknown, userIdentifier: users.unknownDomain },
  },
} satisfies Record<string, Persona>;

export type PersonaId = keyof typeof personas;

export const defaultPersona: PersonaId = 'adele';

export function isPersonaId(value: unknown): value is PersonaId {
  return typeof value === 'string' && Object.hasOwn(personas, value);
}
