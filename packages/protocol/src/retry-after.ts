/**
 * Parses a `Retry-After` header (delta-seconds or an HTTP-date) into whole seconds from `now`.
 * Returns undefined when the header is absent or unreadable; never a negative number.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const value = header?.trim() ?? '';
  const seconds = /^\d+$/.test(value) ? +value : Math.ceil((Date.parse(value) - now) / 1000);
  // NaN (an unreadable date) is neither, so it reads as undefined.
  return seconds >= 0 ? seconds : seconds < 0 ? 0 : undefined;
}
