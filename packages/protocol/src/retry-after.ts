/**
 * Parses a `Retry-After` header (delta-seconds or an HTTP-date) into whole seconds from `now`.
 * Returns undefined when the header is absent or unreadable; never a negative number.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  if (header == null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now) / 1000));
}
