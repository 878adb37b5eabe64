/**
 * Parses a `Retry-After` header (delta-seconds or an HTTP-date) into whole seconds from `now`.
 * Returns undefined when the header is absent or unreadable; never a negative number.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const value = header?.trim() ?? '';
  // Every HTTP-date form names its day or month; Date.parse alone would also read '1.5' or '-5'.
  const seconds = /^\d+$/.test(value)
    ? +value
    : /[a-z]/i.test(value)
      ? Math.ceil((Date.parse(value) - now) / 1000)
      : undefined;
  // NaN (an unreadable date) and Infinity (too many digits) read as undefined too.
  return Number.isFinite(seconds) ? Math.max(0, seconds as number) : undefined;
}
