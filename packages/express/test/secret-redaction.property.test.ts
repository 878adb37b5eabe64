import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { redactingLogger } from '../src/logger.js';
import { secretRedactor } from '../src/secret-redaction.js';

/** An API key as `apiKey` takes one: no whitespace; mostly what keys are made of, sometimes more. */
const apiKey = fc
  .string({
    unit: fc.oneof(
      { arbitrary: fc.constantFrom(...'abcXYZ0189_-'), weight: 8 },
      fc.constantFrom(...'+/=.~"\\:@?&é€😀'),
    ),
    minLength: 16,
    maxLength: 48,
  })
  .filter((key) => !/\s/.test(key));

const hexCase = (text: string, upper: boolean) =>
  text.replace(/%[0-9a-f]{2}/gi, (percent) =>
    upper ? percent.toUpperCase() : percent.toLowerCase(),
  );

/** The key as a text might carry it (docs/contract.md#authentication, rule 2; secret-redaction.ts). */
const carried = (key: string) => {
  const bytes = Buffer.from(key);
  const around = fc.uint8Array({ maxLength: 4 }).map((extra) => Buffer.from(extra));
  return fc.oneof(
    fc.constant(key),
    fc.constant(JSON.stringify(key).slice(1, -1)),
    fc
      .tuple(
        fc.array(fc.boolean(), { minLength: [...key].length, maxLength: [...key].length }),
        fc.boolean(),
      )
      .map(([encoded, upper]) =>
        [...key].map((c, i) => (encoded[i] ? hexCase(percentEncoded(c), upper) : c)).join(''),
      ),
    fc.boolean().map((upper) => hexCase(encodeURIComponent(encodeURIComponent(key)), upper)),
    fc
      .tuple(around, around, fc.constantFrom('base64', 'base64url' as const))
      .map(([before, after, form]) => Buffer.concat([before, bytes, after]).toString(form)),
    fc.constant(`Bearer ${key}`).map((bearer) => Buffer.from(bearer).toString('base64')),
    fc
      .boolean()
      .map((upper) => (upper ? bytes.toString('hex').toUpperCase() : bytes.toString('hex'))),
  );
};

function percentEncoded(character: string): string {
  return [...Buffer.from(character)].map((byte) => `%${byte.toString(16)}`).join('');
}

/** The bytes a text still yields of the key when decoded as the encodings above would. */
function leaks(text: string, key: string): boolean {
  const keyBytes = Buffer.from(key);
  const percentDecoded = (bytes: Buffer) =>
    Buffer.from(
      bytes
        .toString('latin1')
        .replace(/%([0-9a-f]{2})/gi, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))),
      'latin1',
    );
  const once = percentDecoded(Buffer.from(text));
  const decoded = [Buffer.from(text), once, percentDecoded(once), Buffer.from(jsonUnescaped(text))];
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (const skip of [0, 1, 2, 3]) {
      decoded.push(
        Buffer.from(
          run.slice(skip).replace(/[-_]/g, (c) => (c === '-' ? '+' : '/')),
          'base64',
        ),
      );
    }
  }
  for (const run of text.match(/[0-9a-f]{16,}/gi) ?? []) {
    for (const skip of [0, 1]) decoded.push(Buffer.from(run.slice(skip), 'hex'));
  }
  return decoded.some((bytes) => bytes.includes(keyBytes));
}

/** `text` with its JSON string escapes read. */
function jsonUnescaped(text: string): string {
  return text.replace(/\\(["\\/bfnrt]|u[0-9a-fA-F]{4})/g, (_, read: string) =>
    read.length > 1
      ? String.fromCharCode(Number.parseInt(read.slice(1), 16))
      : (JSON.parse(`"\\${read}"`) as string),
  );
}

/** Text around the key; no `%` or backslash that would make an escape with the key's first characters. */
const around = fc.string({ maxLength: 12 }).map((text) => text.replace(/[%\\]/g, ''));

test('no encoding of the key survives the redactor, whatever text is around it', () => {
  fc.assert(
    fc.property(
      apiKey.chain((key) => fc.tuple(fc.constant(key), carried(key), around, around)),
      ([key, form, before, after]) => {
        const text = `${before}${form}${after}`;
        assert.ok(leaks(text, key), 'the oracle sees the key in the text');
        const clean = secretRedactor(key)(text);
        assert.ok(!leaks(clean, key), clean);
      },
    ),
    { numRuns: 250 },
  );
});

test('no logged value carries the key, whatever its type', () => {
  fc.assert(
    fc.property(
      apiKey.chain((key) => fc.tuple(fc.constant(key), carried(key), fc.jsonValue())),
      ([key, form, value]) => {
        const lines: string[] = [];
        const keep = (message: string, details?: Record<string, unknown>) => {
          lines.push(message, JSON.stringify(details));
        };
        const logger = redactingLogger({ warn: keep, error: keep }, key);
        logger.warn(`the service said ${form}`, {
          error: new Error(form),
          nested: { said: [form, value] },
          value,
        });
        for (const line of lines) assert.ok(!leaks(line, key), line);
      },
    ),
    { numRuns: 100 },
  );
});

test('a key shorter than 8 characters is still cut out as it is written', () => {
  for (const key of ['k', 'k3y', 'abc_-12']) {
    const redact = secretRedactor(key);
    assert.equal(redact(`Bearer ${key} refused`), 'Bearer [redacted] refused', key);
  }
});

test('a key whose base64 has + and / is cut out of its base64url form too, at each byte alignment', () => {
  // '~' and '?' encode to + and / in base64: base64url writes them - and _.
  const key = 'key~~~~~~???????~~~';
  const redact = secretRedactor(key);
  for (const form of ['base64', 'base64url'] as const) {
    for (const before of ['', 'x', 'xy']) {
      const text = Buffer.from(`${before}${key}`).toString(form);
      assert.ok(!leaks(redact(text), key), `${form} after ${before.length} bytes: ${redact(text)}`);
    }
  }
});
