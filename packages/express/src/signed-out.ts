import type { FormTarget } from '@form-embed/protocol';
import type { CatalogueReads } from './catalogue-reads.js';
import { describe, type Logger } from './logger.js';
import { portalError } from './session-error-response.js';

/** How long a failed forms-list read is not repeated for a signed-out mint. */
const UNREADABLE_LIST_PAUSE_MS = 10_000;

/**
 * A mint of `target` with nobody signed in (docs/contract.md#portal-codes): a form that needs a
 * user answers `sign_in_required` without spending a mint. A Core form always needs one. A
 * designer form needs one when its `authType` is microsoft or google, which the organisation's
 * forms list tells (the catalogue's cached read, so no request of its own most of the time). A form
 * with `authType` none is minted with no user, the contract's own case (provider none, no
 * handle). When the list cannot tell (the form is newer than the cached list, its `authType` one
 * this release does not know, or the list cannot be read, and then for UNREADABLE_LIST_PAUSE_MS),
 * the mint goes ahead and `mintRoute` maps the service's `invalid_request` for a user-less request
 * to `sign_in_required`. The signed-out menu is stricter (catalogue-route.ts' opensFor): it offers
 * only what surely opens, `none`.
 */
export function signedOutRefusal(
  reads: CatalogueReads,
  logger: Logger,
): (target: FormTarget) => Promise<void> {
  // After a failed read, the list is not asked for again for a while: while the service is
  // failing, a signed-out mint should cost it one request, not two.
  let unreadableUntil = 0;
  return async function refuseSignedOut(target) {
    if (target.kind === 'coreForm') throw portalError('sign_in_required');
    if (Date.now() < unreadableUntil) return;
    const forms = await reads.forms().catch((error: unknown) => {
      unreadableUntil = Date.now() + UNREADABLE_LIST_PAUSE_MS;
      logger.warn('the forms list could not be read to tell whether a form needs a user', {
        error: describe(error),
      });
      return [];
    });
    const form = forms.find((candidate) => candidate.id === target.formId);
    if (form?.authType === 'microsoft' || form?.authType === 'google') {
      throw portalError('sign_in_required');
    }
  };
}
