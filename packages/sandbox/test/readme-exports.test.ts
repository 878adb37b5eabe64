// The README names every export of both entries, so that a partner reading it finds each name
// their editor offers (the install section lists them; the sections after say what each does).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

/** The names an entry's `export {…}` lists hold, values and types alike (`type X` as `X`). */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const [, list] of source.matchAll(/export (?:type )?\{([^}]*)\}/g)) {
    for (const item of (list as string).split(',')) {
      const name = item.trim().replace(/^type\s+/, '');
      if (name) names.push(name);
    }
  }
  return names;
}

test('the README names every export of @form-embed/sandbox and of its control-client entry', () => {
  const readme = read('../README.md');
  const named = new Set([...readme.matchAll(/`(\w+)`/g)].map((match) => match[1]));
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
