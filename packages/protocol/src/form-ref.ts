/**
 * What may name a form in a URL path: a designer form's id or a Core form's slug
 * (docs/contract.md#form-ids). The element and the middleware ask here, and so does `expandPath`,
 * which fills an id or slug into the service's paths.
 */

/** The longest id or slug accepted. Longer ones are refused before any request is made. */
export const FORM_REF_MAX_LENGTH = 200;

/**
 * True for an empty value, `.` or `..`. `encodeURIComponent` leaves dots alone, so a URL
 * parser would read such a value as a dot segment and send the request to another path.
 */
export function isDotSegment(value: string): boolean {
  return value === '' || value === '.' || value === '..';
}

/** True when `value` can name a form: not a dot segment, and at most 200 characters. */
export function isValidFormRef(value: string): boolean {
  // isDotSegment written out: a minifier cannot inline a call that reads its argument three
  // times, and the element ships this (5 B gzip).
  return value !== '' && value !== '.' && value !== '..' && value.length <= FORM_REF_MAX_LENGTH;
}
