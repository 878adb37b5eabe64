import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Request } from 'express';
import fc from 'fast-check';
import { limitKey, MAX_WHO_LENGTH } from '../src/limit-key.js';
import type { ResolvedUser } from '../src/options.js';

const START = 'form-embed:/form-sessions:';
// Few characters, so that two users often differ only in case or where a separator falls.
const field = fc.option(
  fc.oneof(
    fc.string({ unit: fc.constantFrom(...'aA:",'), minLength: 1, maxLength: 3 }),
    // Letters that toLowerCase() folds across scripts too: İ, and KELVIN SIGN into k.
    fc.string({
      unit: fc.constantFrom(...'aAbB"\\,[]:@._-ÉéİiKk\u212a'),
      minLength: 1,
      maxLength: 6,
    }),
    // Around the length past which the user part is hashed.
    fc.string({ unit: fc.constantFrom(...'aA"'), minLength: 30, maxLength: 70 }),
  ),
  { nil: undefined },
);
const user = fc
  .record({ clientId: field, microsoftTenantId: field, userIdentifier: field })
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)))
  .filter((fields) => Object.keys(fields).length > 0) as fc.Arbitrary<NonNullable<ResolvedUser>>;
const req = (ip: string) => ({ ip }) as Request;
const NAMES = ['clientId', 'microsoftTenantId', 'userIdentifier'] as const;
/** Case as the limit key folds it: A to Z only (the identifiers compared without case are ASCII). */
const asciiLower = (text: string) => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
const asciiUpper = (text: string) => text.replace(/[a-z]+/g, (letters) => letters.toUpperCase());

/** A user like `u`: one field in upper case, or the border between two fields moved by one character. */
const nearUser = (u: NonNullable<ResolvedUser>) =>
  fc.tuple(fc.boolean(), fc.nat({ max: 2 })).map(([upper, at]) => {
    const values = NAMES.map((name) => u[name] ?? '');
    const [left = '', right = ''] = [values[at], values[at + 1]];
    if (upper || at === 2) values[at] = asciiUpper(left);
    else [values[at], values[at + 1]] = [left.slice(0, -1), left.slice(-1) + right];
    return Object.fromEntries(NAMES.map((name, i) => [name, values[i]]).filter(([, v]) => v));
  });
const twoUsers = user.chain((a) => fc.tuple(fc.constant(a), fc.oneof(user, nearUser(a))));

/** Who the README says a user is: the client as given, the tenant and identifier without case. */
const who = (u: NonNullable<ResolvedUser>) =>
  [u.clientId, asciiLower(u.microsoftTenantId ?? ''), asciiLower(u.userIdentifier ?? '')].join(
    '\u0000',
  );

test('two users share a limit key exactly when they are the same user, case aside', () => {
  fc.assert(
    fc.property(
      twoUsers,
      fc.constantFrom('mint', 'catalogue') as fc.Arbitrary<'mint'>,
      ([a, b], name) => {
        const same =
          limitKey(req('1.2.3.4'), START, name, a) === limitKey(req('1.2.3.4'), START, name, b);
        assert.equal(same, who(a) === who(b), JSON.stringify([a, b]));
      },
    ),
    { numRuns: 500 },
  );
});

test('a user writing tenant or identifier in another case counts as the same user', () => {
  fc.assert(
    fc.property(user, (u) => {
      const upper = {
        ...u,
        ...(u.microsoftTenantId && { microsoftTenantId: asciiUpper(u.microsoftTenantId) }),
        ...(u.userIdentifier && { userIdentifier: asciiUpper(u.userIdentifier) }),
      };
      assert.equal(
        limitKey(req('::1'), START, 'mint', u),
        limitKey(req('::1'), START, 'mint', upper),
      );
    }),
    { numRuns: 300 },
  );
});

test('a signed-in user never shares a key with a signed-out address, nor one limit with another', () => {
  fc.assert(
    fc.property(user, fc.ipV4(), (u, ip) => {
      const keys = [
        limitKey(req(ip), START, 'mint', u),
        limitKey(req(ip), START, 'catalogue', u),
        limitKey(req(ip), START, 'mint', undefined),
        limitKey(req(ip), START, 'catalogue', undefined),
        limitKey(req(ip), START, 'signedOutMint', undefined),
      ];
      assert.equal(new Set(keys).size, keys.length, keys.join(' '));
    }),
    { numRuns: 200 },
  );
});

test('however long the user, the key stays short, and two long users still count apart', () => {
  const long = (c: string) => ({ userIdentifier: c.repeat(100_000) });
  const a = limitKey(req('::1'), START, 'mint', long('a'));
  const b = limitKey(req('::1'), START, 'mint', long('b'));
  assert.ok(a.length < START.length + MAX_WHO_LENGTH, a);
  assert.notEqual(a, b);
  assert.equal(a, limitKey(req('::1'), START, 'mint', long('A')));
});

test('a user part of 128 characters (MAX_WHO_LENGTH, as the README says) is kept as it is; one character more is hashed', () => {
  // JSON.stringify(['', '', identifier]) is the identifier and 10 characters more.
  const of = (length: number) =>
    limitKey(req('::1'), START, 'mint', { userIdentifier: 'a'.repeat(length - 10) });
  assert.equal(of(128), `${START}mint:user:["","","${'a'.repeat(118)}"]`);
  assert.match(of(129), /:user:sha256:[0-9a-f]{64}$/);
});
