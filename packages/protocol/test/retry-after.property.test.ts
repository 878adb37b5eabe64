import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseRetryAfter, toImfFixdate } from '../src/index.js';

const YEAR_MS = 365.25 * 24 * 3600 * 1000;
/** Any moment from 1970 to 2200. */
const now = fc.integer({ min: 0, max: 230 * YEAR_MS });
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** `time` in RFC 850's form, with a two-digit year. */
function rfc850(time: number): string {
  const [day = '', dd, month, year = '', clock] = new Date(time).toUTCString().split(' ');
  const weekday = WEEKDAYS.find((name) => name.startsWith(day.slice(0, 3)));
  return `${weekday}, ${dd}-${month}-${year.slice(-2)} ${clock} GMT`;
}

/** `time` in asctime's form: `Sun Nov  6 08:49:37 1994`. */
function asctime(time: number): string {
  const [day = '', dd = '', month, year, clock] = new Date(time).toUTCString().split(' ');
  return `${day.slice(0, 3)} ${month} ${dd.replace(/^0/, ' ')} ${clock} ${year}`;
}

const headerish = fc
  .oneof(
    fc.string(),
    fc.string({ unit: fc.constantFrom('0', '1', '9', ' ', '-', '+', '.', 'e', 'x') }),
    fc.bigInt({ min: 0n, max: 10n ** 400n }).map(String),
    fc.tuple(now, fc.integer({ min: -1e6, max: 1e6 })).map(([at, s]) => new Date(at + s * 1000)),
  )
  .map((value) => (value instanceof Date ? value.toUTCString() : value));

test('a Retry-After is absent or a whole number of seconds, never negative, whatever the header says', () => {
  fc.assert(
    fc.property(headerish, now, (header, at) => {
      for (const read of [parseRetryAfter(header, at), parseRetryAfter(toImfFixdate(header), at)]) {
        if (read === undefined) continue;
        assert.ok(
          Number.isInteger(read) && read >= 0 && !Object.is(read, -0),
          `${header}: ${read}`,
        );
      }
    }),
    { numRuns: 500 },
  );
});

test('delta-seconds read as themselves, and a date as the whole seconds until it', () => {
  fc.assert(
    fc.property(now, fc.integer({ min: 0, max: 1e7 }), (at, seconds) => {
      assert.equal(parseRetryAfter(` ${seconds} `, at), seconds);
      const date = new Date(Math.floor(at / 1000) * 1000 + seconds * 1000);
      assert.equal(parseRetryAfter(date.toUTCString(), at), seconds);
      assert.equal(parseRetryAfter(toImfFixdate(asctime(date.getTime()), at), at), seconds);
    }),
    { numRuns: 300 },
  );
});

test('an RFC 850 date reads as the year with its two digits that is at most 50 years ahead (RFC 9110)', () => {
  const dateNear = now.chain((at) =>
    fc.tuple(
      fc.constant(at),
      fc.integer({ min: Math.ceil(-48 * YEAR_MS), max: Math.floor(48 * YEAR_MS) }),
    ),
  );
  fc.assert(
    fc.property(dateNear, ([at, offset]) => {
      const time = Math.floor((at + offset) / 1000) * 1000;
      assert.equal(toImfFixdate(rfc850(time), at), new Date(time).toUTCString(), rfc850(time));
    }),
    { numRuns: 500 },
  );
});
