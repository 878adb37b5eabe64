import type { Availability, CoreForm } from './schemas.js';

/**
 * When a Core form can be embedded (docs/contract.md#core-forms): it is enabled and its
 * availability is public or both (`public`, which `embeddable` reports), and no client override
 * for the user's client withdraws it.
 */

/** `public` and `both` are the availabilities that allow a public (embedded) session. */
export function isPublicAvailability(availability: Availability | string | null): boolean {
  return availability === 'public' || availability === 'both';
}

/**
 * True when the client override for `tenantId` makes the form unavailable publicly for that
 * client: the override is disabled, or sets an availability that is not public (null, or none,
 * inherits the base). Tenant ids are GUIDs, compared without regard to case.
 */
export function isWithdrawnForTenant(
  form: Pick<CoreForm, 'clientOverrides'>,
  tenantId: string,
): boolean {
  const tenant = tenantId.toLowerCase();
  return form.clientOverrides.some(
    (override) =>
      override.tenantId?.toLowerCase() === tenant &&
      (override.enabled === false ||
        (override.availability != null && !isPublicAvailability(override.availability))),
  );
}
