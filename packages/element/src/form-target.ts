import { type FormTarget, isValidFormRef } from '@form-embed/protocol/browser';

/**
 * The form an element names: exactly one of `form-id` and `core-slug`, each a valid form ref
 * (docs/contract.md#form-ids) that is well-formed UTF-16 (a lone surrogate, a string cut inside
 * an emoji, has no URL encoding). Undefined otherwise, and the element then mints nothing.
 */
export function formTarget(formId?: string, coreSlug?: string): FormTarget | undefined {
  const exactlyOne = (formId == null) !== (coreSlug == null);
  const ref = formId ?? (coreSlug as string);
  if (exactlyOne && isValidFormRef(ref) && ref.isWellFormed()) {
    return formId == null
      ? { kind: 'coreForm', slug: coreSlug as string }
      : { kind: 'form', formId };
  }
}
