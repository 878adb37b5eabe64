// Run by each package's build, in the package's folder, after tsc. The packages are ES modules;
// a CommonJS app on Node 20.19+ or 22.12+ loads them with require(esm). What it needs from us:
// - for each `require` condition in `exports`, a one-line `.cjs` file that requires the ES
//   module, so the file a CommonJS resolver lands on is CommonJS (one module instance: require
//   and import share Node's module cache);
// - `.d.cts` twins of the declarations, so TypeScript in a CommonJS project (module node16 or
//   nodenext) types that require without importing an ES module from a CommonJS file.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { CLIENT_MODULE } from './client-module.mjs';

const pkg = JSON.parse(await readFile('package.json', 'utf8'));

for (const [entry, target] of Object.entries(pkg.exports)) {
  const required = target?.require?.default;
  const imported = target?.import?.default;
  if (required === undefined) continue;
  if (!required.endsWith('.cjs') || imported === undefined) {
    throw new Error(`exports["${entry}"] needs import.default and a .cjs require.default`);
  }
  for (const [from, to] of await expand(imported, required)) {
    // A React client module ('use client', for Server Components) stays one when required.
    const directive = CLIENT_MODULE.test(await readFile(from, 'utf8')) ? "'use client';\n" : '';
    await writeFile(to, `${directive}module.exports = require('./${basename(from)}');\n`);
  }
}

/** The file pairs an entry names: itself, or for a `*` pattern each built file it matches. */
async function expand(imported, required) {
  if (!imported.includes('*')) return [[imported, required]];
  const [before, after] = imported.split('*');
  const dir = before.slice(0, before.lastIndexOf('/'));
  const pairs = [];
  for (const file of await readdir(dir)) {
    const path = `${dir}/${file}`;
    if (!path.startsWith(before) || !path.endsWith(after)) continue;
    const stem = path.slice(before.length, path.length - after.length);
    pairs.push([path, required.replace('*', stem)]);
  }
  return pairs;
}

const relativeJs = /(['"])(\.{1,2}\/[^'"]+)\.js\1/g;
for (const file of await readdir('dist', { recursive: true })) {
  if (!file.endsWith('.d.ts')) continue;
  const declarations = await readFile(join('dist', file), 'utf8');
  await writeFile(
    join('dist', file.replace(/\.d\.ts$/, '.d.cts')),
    declarations.replace(relativeJs, '$1$2.cjs$1'),
  );
}
