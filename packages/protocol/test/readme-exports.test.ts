// The README's "What it exports" table is the package's API reference: it names every export of
// the two entries, no more and no fewer, and says rightly which entry has each ("both" for
// `@form-embed/protocol/browser` too, "server" for `@form-embed/protocol` alone).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { exportedNames } from '../../../scripts/exported-names.mjs';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

const browser = new Set(exportedNames(read('../src/browser.ts')));
const index = read('../src/index.ts');
assert.match(index, /export \* from '\.\/browser\.js';/);
const server = new Set([...browser, ...exportedNames(index)]);

/** Each row of the README's table: the names of its first column and its `from` column. */
function readmeRows(): { names: string[]; from: string }[] {
  const readme = read('../README.md');
  const section = readme.slice(
    readme.indexOf('## What it exports'),
    readme.indexOf('\n## ', 20 + readme.indexOf('## What it exports')),
  );
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [first, from] = line.split(' | ');
      return {
        names: [...(first as string).matchAll(/`(\w+)`/g)].map((m) => m[1] as string),
        from: (from as string).trim(),
      };
    });
}

describe('the README lists exactly what @form-embed/protocol exports', () => {
  const rows = readmeRows();
  const listed = new Set(rows.flatMap((row) => row.names));

  test('every export of either entry is in the table', () => {
    assert.deepEqual(
      [...server].filter((name) => !listed.has(name)),
      [],
    );
  });

  test('every name in the table is an export', () => {
    assert.deepEqual(
      [...listed].filter((name) => !server.has(name)),
      [],
    );
  });

  test('"both" rows are in the browser entry, "server" rows only in the server one', () => {
    for (const { names, from } of rows) {
      assert.ok(from === 'both' || from === 'server', `from is ${from}`);
      for (const name of names) assert.equal(browser.has(name), from === 'both', name);
    }
  });
});
