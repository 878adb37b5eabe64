import { FORM_REF_MAX_LENGTH, isDotSegment, isValidFormRef } from './form-ref.js';
import type { FormTarget } from './mint-exchange.js';

/**
 * Why a server that mints (the middleware) refuses `target`, or undefined when it may put it in
 * the upstream path: an id or slug that is empty, `.`, `..` (once decoded, so `%2E%2E` too), over
 * 200 characters (docs/contract.md#form-ids), or holding path syntax (`PATH_SYNTAX`). Placed in
 * the upstream path, a dot segment would send the API-keyed POST to another endpoint, and a long
 * id grows up to ninefold when encoded until the service refuses the request line. The middleware
 * refuses such a mint (`invalid_request`, this sentence its message) before `authorize`, the
 * per-user limit and any upstream request, and its catalogue leaves such a form out.
 */
export function formRefRefusal(target: FormTarget): string | undefined {
  const value = target.kind === 'form' ? target.formId : target.slug;
  const valid = isValidFormRef(value);
  if (valid && !PATH_SYNTAX.test(value)) return undefined;
  const what = target.kind === 'form' ? 'form id' : 'Core form slug';
  if (valid) return `The ${what} must not contain /, \\, ?, # or %.`;
  return isDotSegment(value)
    ? `The ${what} is not a valid path segment.`
    : `The ${what} must be at most ${FORM_REF_MAX_LENGTH} characters.`;
}

/**
 * Characters that, sent encoded (`%2F`), a standard service reads as part of the id, but that a
 * gateway in front of it which decodes paths before routing would read as a path, a query, or
 * an escape: the API-keyed mint would go to another endpoint. Refused on top of the contract's
 * rule, since no id needs them; the element, which has no key to protect, leaves them to the server.
 */
const PATH_SYNTAX = /[/\\?#%]/;
