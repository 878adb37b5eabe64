// The README names every export of both entries, so that a partner reading it finds each name
// their editor offers (the install section lists them; the sections after say what each does).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { exportedNames, namesInCode } from '../../../scripts/exported-names.mjs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

test('the README names every export of @form-embed/sandbox and of its control-client entry', () => {
  const named = namesInCode(read('../README.md'));
  const exported = [
    ...exportedNames(read('../src/index.ts')),
    ...exportedNames(read('../src/control-client.ts')),
  ];
  assert.ok(exported.includes('startSandbox') && exported.includes('controlClient'));
  assert.deepEqual(
    exported.filter((name) => !named.has(name)),
    [],
  );
});
