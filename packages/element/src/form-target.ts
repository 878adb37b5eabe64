import { type FormTarget, isValidFormRef } from '@form-embed/protocol/browser';

/**
 * The form an element names: exactly one of `form-id` and `core-slug`, each a valid form ref
 * (docs/contract.md#form-ids). Undefined otherwise, and the element then mints nothing.
 */
export function formTarget(formId?: string, coreSlug?: string): FormTarget | undefined {
  const ref = formId ?? coreSlug;
  if (formId != null && coreSlug != null) return;
  if (ref != null && isValidFormRef(ref)) {
    return formId != null ? { kind: 'form', formId } : { kind: 'coreForm', slug: ref };
  }
}
