// The README names every export of the element's entries, so that a partner reading it finds
// each name their editor offers, and nothing internal is exported beside them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { exportedNames, namesInCode } from '../../../scripts/exported-names.mjs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

test('the README names every export of @form-embed/element, /define, /react and /react-jsx', () => {
  const named = namesInCode(read('../README.md'));
  const exported = ['index', 'define', 'react', 'react-jsx'].flatMap((entry) =>
    exportedNames(read(`../src/${entry}.ts`)),
  );
  assert.ok(exported.includes('FormEmbedElement') && exported.includes('FormEmbed'));
  assert.deepEqual(
    [...new Set(exported)].filter((name) => !named.has(name)),
    [],
  );
});
