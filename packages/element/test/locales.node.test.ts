import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { before, describe, test } from 'node:test';
import { ELEMENT_SENTENCE_KEYS } from '@form-embed/protocol';
import { PortalErrorCodes, SessionErrorCodes } from '@form-embed/protocol/browser';
import { FAILURE_GROUPS, failureKey, type Messages, messages } from '../src/messages.js';
import { UNTRUSTED_ORIGIN } from '../src/origins.js';
import { LOCALES } from './bundle-size.js';

// Every file in src/locales is a shipped pack (the `./locales/*` export), checked here whether or
// not LOCALES names it.
// Read as the tests are declared; imported in a hook (scripts/test-files.mjs refuses a top-level
// await).
const langs = readdirSync(new URL('../src/locales/', import.meta.url))
  .map((file) => file.replace(/\.ts$/, ''))
  .sort();
const packs: Record<string, Messages> = {};
before(async () => {
  for (const lang of langs) packs[lang] = (await import(`../src/locales/${lang}.js`)).default;
});
const codes = [
  ...Object.keys(SessionErrorCodes),
  ...Object.keys(PortalErrorCodes),
  UNTRUSTED_ORIGIN,
];

/** The rows of the README's three-column table under `header`: [row, key, middle cell, English]. */
function readmeRows(header: string) {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const table = readme.slice(readme.indexOf(header)).split('\n\n')[0] as string;
  return [...table.matchAll(/^\| `(\w+)` \| (.+) \| (.+) \|$/gm)];
}

describe('messages of every shipped locale', () => {
  for (const lang of ['en', ...langs]) {
    const packOf = () => (lang === 'en' ? messages : (packs[lang] as Messages));
    test(`${lang}: every code of the SessionError table, the portal codes and the element's own has a message`, () => {
      for (const code of codes) {
        const key = failureKey(code, messages);
        // A code with no group of its own would read as `unknown`: a new code must be placed.
        assert.ok(key !== 'unknown' || code === 'unknown', `${code} belongs to no message group`);
        assert.ok(packOf()[key as keyof Messages]?.trim(), `${lang} has no message for ${code}`);
      }
    });

    test(`${lang}: has exactly the English keys, none empty, no two alike`, () => {
      const pack = packOf();
      assert.deepEqual(Object.keys(pack).sort(), Object.keys(messages).sort());
      for (const [key, text] of Object.entries(pack)) assert.ok(text.trim(), `${lang}.${key}`);
      // Two keys worded alike (Try again and Dismiss both "Schließen") tell two things as one.
      const texts = Object.values(pack);
      const alike = texts.filter((text, i) => texts.indexOf(text) !== i);
      assert.deepEqual(alike, [], `${lang}: worded alike`);
    });
  }

  test('the size budget and the bench measure every pack', () => {
    assert.deepEqual(
      Object.keys(packs).sort(),
      [...LOCALES].sort(),
      'LOCALES in bundle-size.ts lists the packs',
    );
  });

  for (const lang of langs) {
    test(`${lang}: no message is left in English`, () => {
      for (const [key, text] of Object.entries(packs[lang] as Messages)) {
        assert.notEqual(text, messages[key as keyof typeof messages], `${lang}.${key}`);
      }
    });
  }

  test('a code this release does not know reads as unknown; a page may word one code apart', () => {
    assert.equal(failureKey('seat_limit_reached', messages), 'unknown');
    assert.equal(failureKey('user_not_found', messages), 'forbidden');
    assert.equal(
      failureKey('user_not_found', { ...messages, user_not_found: 'Ask IT' }),
      'user_not_found',
    );
    assert.equal(failureKey('toString', messages), 'unknown');
    // One word is a code too: a page words a new `suspended` apart.
    assert.equal(failureKey('suspended', { ...messages, suspended: 'Paused' }), 'suspended');
  });

  test("the README's table of failure keys names every code under the key it reads as, and its English", () => {
    const rows = readmeRows('| key | codes | English |');
    const tabled = rows.flatMap(([, key, cell]) =>
      [...(cell as string).matchAll(/`(\w+)`/g)].map(([, code]) => [code, key]),
    );
    const known = new Map(codes.map((code) => [code, failureKey(code, messages)]));
    // Each once: the pairs, not a Map, which would keep a code's last row alone.
    assert.deepEqual(
      tabled.filter(([code]) => known.has(code as string)).sort(),
      [...known].sort(),
    );
    assert.deepEqual(
      rows.map(([, key, , english]) => english === messages[key as keyof Messages]),
      rows.map(() => true),
    );
  });

  test("the README's two tables word every message key once, each in its English", () => {
    const tabled = ['| key | codes | English |', '| key | shown | English |'].flatMap((header) =>
      readmeRows(header).map(([, key, , english]) => [key, english]),
    );
    assert.deepEqual(tabled.sort(), Object.entries(messages).sort());
  });

  test('the sentence keys, which no code may take, are ELEMENT_SENTENCE_KEYS: the middleware passes on no code named as one', () => {
    const failureKeys = new Set([...Object.keys(FAILURE_GROUPS), ...codes]);
    const sentences = Object.keys(messages).filter((key) => !failureKeys.has(key));
    assert.deepEqual(sentences.sort(), [...ELEMENT_SENTENCE_KEYS].sort());
  });
});
