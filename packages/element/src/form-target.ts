import { type FormTarget, isValidFormRef } from '@form-embed/protocol/browser';

/**
 * The form an element names: exactly one of `form-id` and `core-slug`, each a valid form ref
 * (docs/contract.md#form-ids). Undefined otherwise, and the element then mints nothing.
 */
export function formTarget(formId?: string, coreSlug?: string): FormTarget | undefined {
  const exactlyOne = (formId == null) !== (coreSlug == null);
  if (exactlyOne && isValidFormRef(formId ?? (coreSlug as string))) {
    return formId != null
      ? { kind: 'form', formId }
      : { kind: 'coreForm', slug: coreSlug as string };
  }
}
