/** The sandbox's designer forms and Core forms (docs/contract.md#designer-forms, #core-forms). */
import type { Availability, CoreFormClientOverride, KnownAuthType } from '@form-embed/protocol';
import { fixtureIds } from './fixture-ids.js';

export interface FormRecord {
  organisationId: string;
  id: string;
  name: string;
  authType: KnownAuthType;
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
  authType: form.authType as KnownAuthType,
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
  /** The sandbox's own overrides: every field written. */
  clientOverrides: Required<CoreFormClientOverride>[];
}

const { coreForms: cf, tenants: t } = fixtureIds;

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

/** One organisation's designer forms: another's answer `form_not_found`, as a missing one does. */
export function formsOf(organisationId: string): FormRecord[] {
  return [...forms, ...otherOrganisationForms].filter((f) => f.organisationId === organisationId);
}
