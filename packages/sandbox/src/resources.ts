/** Projections of the fixture records into the contract's resources (docs/contract.md). */
import {
  type CoreForm,
  type Form,
  isPublicAvailability,
  type KnownAuthType,
} from '@form-embed/protocol';
import type { ClientRecord, CoreFormRecord, FormRecord } from './fixtures.js';

/** docs/contract.md#designer-forms: `embeddable` is true for microsoft, google and none, never stored. */
function isEmbeddableAuthType(authType: KnownAuthType): boolean {
  return authType === 'microsoft' || authType === 'google' || authType === 'none';
}

export function designerFormPath(formId: string): string {
  return `/f/${encodeURIComponent(formId)}`;
}

export function coreFormPath(slug: string): string {
  return `/c/${encodeURIComponent(slug)}`;
}

export function toForm(record: FormRecord, formsOrigin: string): Form {
  return {
    id: record.id,
    name: record.name,
    shareUrl: `${formsOrigin}${designerFormPath(record.id)}`,
    authType: record.authType,
    embeddable: isEmbeddableAuthType(record.authType),
    listedOnHomepage: record.listedOnHomepage,
    updatedAt: record.updatedAt,
  };
}

/** docs/contract.md#core-forms: a Core form is public (and embeddable) when enabled and public. */
export function isPublicCoreForm(record: Pick<CoreFormRecord, 'enabled' | 'availability'>) {
  return record.enabled && isPublicAvailability(record.availability);
}

/** A Core form as the API answers it, with the overrides of `ownTenants` only. */
export function toCoreForm(
  record: CoreFormRecord,
  coreFormsOrigin: string,
  ownTenants: ReadonlySet<string>,
): CoreForm {
  const isPublic = isPublicCoreForm(record);
  return {
    slug: record.slug,
    name: record.name,
    enabled: record.enabled,
    availability: record.availability,
    internal:
      record.enabled && (record.availability === 'internal' || record.availability === 'both'),
    public: isPublic,
    embeddable: isPublic,
    listedOnHomepage: record.listedOnHomepage,
    ...(isPublic ? { publicUrl: `${coreFormsOrigin}${coreFormPath(record.slug)}` } : {}),
    clientOverrides: record.clientOverrides
      .filter((override) => ownTenants.has(override.tenantId.toLowerCase()))
      .map((override) => ({ ...override })),
  };
}

export function toClient(record: ClientRecord) {
  const { organisationId: _org, directoryReadDenied: _denied, ...client } = record;
  return { ...client, googleWorkspaceDomains: [...client.googleWorkspaceDomains] };
}
