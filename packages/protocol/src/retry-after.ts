/**
 * Parses a `Retry-After` header into whole seconds from `now` (docs/contract.md#retry-after):
 * delta-seconds, or an IMF-fixdate exactly as RFC 9110 writes it (`Sun, 06 Nov 1994 08:49:37
 * GMT`, weekday included). Anything else (`x 5`, `1.5`, `-5`, too many digits) is undefined;
 * never a negative number. Callers cap it to what they will wait. Kept small: the browser entry
 * exports it, for a `fetchSession` or other browser code (the element reads whole seconds only);
 * a server reading the obsolete date forms passes the header through `toImfFixdate` first.
 */
export function parseRetryAfter(
  header: string | null | undefined,
  now = Date.now(),
): number | undefined {
  const value = header?.trim() ?? '';
  const date = new Date(value);
  const seconds = /^\d+$/.test(value)
    ? +value
    : date.toUTCString() === value
      ? Math.ceil((+date - now) / 1000)
      : Infinity;
  // Infinity (not a date, or too many digits) reads as undefined.
  return Number.isFinite(seconds) ? Math.max(0, seconds) : undefined;
}

const RFC_850_DATE =
  /^(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (\d\d)-([A-Z][a-z]{2})-(\d\d) (\d\d:\d\d:\d\d) GMT$/;
const ASCTIME_DATE = /^([A-Z][a-z]{2}) ([A-Z][a-z]{2}) ([ \d]\d) (\d\d:\d\d:\d\d) (\d{4})$/;

/**
 * Rewrites an HTTP-date in one of the two obsolete forms RFC 9110 still accepts (RFC 850 and
 * asctime) as the IMF-fixdate `parseRetryAfter` reads; anything else comes back unchanged.
 * A two-digit year is the one at most 50 years ahead of `now`, else the century before, as RFC
 * 9110 says (in 1999, `00` is 2000).
 */
export function toImfFixdate(header: string, now = Date.now()): string {
  const value = header.trim();
  const rfc850 = RFC_850_DATE.exec(value);
  if (rfc850) {
    const [, day = '', dd, month, yy, time] = rfc850;
    const thisYear = new Date(now).getUTCFullYear();
    let year = thisYear - (thisYear % 100) + Number(yy);
    if (year > thisYear + 50) year -= 100;
    else if (year <= thisYear - 50) year += 100;
    return `${day.slice(0, 3)}, ${dd} ${month} ${year} ${time} GMT`;
  }
  const asctime = ASCTIME_DATE.exec(value);
  if (asctime) {
    const [, day, month, dd = '', time, year] = asctime;
    return `${day}, ${dd.replace(' ', '0')} ${month} ${year} ${time} GMT`;
  }
  return value;
}
