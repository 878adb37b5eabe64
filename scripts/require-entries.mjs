// Run by each package's build, in the package's folder, after tsc. The packages are ES modules;
// a CommonJS app on Node 20.19+ or 22.12+ loads them with require(esm). What it needs from us:
// - for each `require` condition in `exports`, a one-line `.cjs` file that requires the ES
//   module, so the file a CommonJS resolver lands on is CommonJS (one module instance: require
//   and import share Node's module cache);
// - `.d.cts` twins of the declarations, so TypeScript in a CommonJS project (module node16 or
//   nodenext) types that require without importing an ES module from a CommonJS file (and their
//   imports of a package that is ES modules only, Lit, resolved as imports: see below).
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CLIENT_MODULE } from './client-module.mjs';

const pkg = JSON.parse(await readFile('package.json', 'utf8'));
/** Where the `.d.cts` twins go as they were for TypeScript before 5.3, and their condition. */
const LEGACY = 'ts5.2';
const LEGACY_TYPES = 'types@<5.3';
/** Package name → whether it is ES modules only. */
const esmOnly = new Map();

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
const twins = [];
for (const file of await readdir('dist', { recursive: true })) {
  if (!file.endsWith('.d.ts') || file.startsWith(`${LEGACY}/`)) continue;
  const declarations = (await readFile(join('dist', file), 'utf8')).replace(
    relativeJs,
    '$1$2.cjs$1',
  );
  twins.push([file.replace(/\.d\.ts$/, '.d.cts'), declarations]);
}

// A `.d.cts` twin is a CommonJS file: where skipLibCheck is off, TypeScript's default, it refuses
// the twin's import of a package that is ES modules only, as Lit's are (TS1479, or TS1541 for a
// type-only import; under module node16, and nodenext before 5.8). A type-only import with a
// resolution-mode attribute it allows, and a declaration file imports nothing but types: each
// such import becomes one.
// TypeScript before 5.3 cannot parse the attribute, even with skipLibCheck on: it gets the twins
// as they were, in dist/ts5.2, through the `types@<5.3` condition each `require` must then have.
const rewritten = twins.map(([file, declarations]) => [
  file,
  withResolutionMode(declarations, join('dist', file)),
]);
for (const [file, declarations] of rewritten) await writeFile(join('dist', file), declarations);
if (rewritten.some(([, declarations], index) => declarations !== twins[index][1])) {
  for (const [file, declarations] of twins) {
    await mkdir(dirname(join('dist', LEGACY, file)), { recursive: true });
    await writeFile(join('dist', LEGACY, file), declarations);
  }
  for (const [entry, target] of Object.entries(pkg.exports)) {
    const types = target?.require?.types;
    if (types === undefined) continue;
    const legacy = types.replace('./dist/', `./dist/${LEGACY}/`);
    if (Object.keys(target.require)[0] !== LEGACY_TYPES || target.require[LEGACY_TYPES] !== legacy)
      throw new Error(`exports["${entry}"].require needs "${LEGACY_TYPES}": "${legacy}" first`);
  }
}

/** `declarations` (of `file`) with each import of a package that is ES modules only type-only, resolved as an import. */
function withResolutionMode(declarations, file) {
  const imports = /^import (type )?([^;'"]+) from (['"])([^'"]+)\3;/gm;
  const changed = declarations.replace(imports, (statement, _type, clause, _quote, specifier) => {
    if (!isEsmOnly(specifier)) return statement;
    if (/^\w+\s*,/.test(clause)) {
      throw new Error(
        `${file}: ${statement}: a type-only import takes a default or named bindings`,
      );
    }
    const bindings = clause.replace(/\btype\s+/g, '');
    return `import type ${bindings} from '${specifier}' with { 'resolution-mode': 'import' };`;
  });
  // Any other: a re-export, an import() type, an import for its side effects (which takes no
  // resolution-mode) or an import = require.
  const references =
    /\bfrom (['"])([^'"]+)\1(?! with)|\bimport\((['"])([^'"]+)\3\)|^import (['"])([^'"]+)\5|\brequire\((['"])([^'"]+)\7\)/gm;
  for (const match of changed.matchAll(references)) {
    const specifier = match[2] ?? match[4] ?? match[6] ?? match[8];
    if (isEsmOnly(specifier)) {
      throw new Error(
        `${file}: ${specifier}: a .d.cts refers to it other than by an import declaration`,
      );
    }
  }
  return changed;
}

/** Whether the package `specifier` names (bare) is ES modules only: no `require` in its exports. */
function isEsmOnly(specifier) {
  if (specifier.startsWith('.') || specifier.startsWith('node:')) return false;
  const parts = specifier.split('/');
  const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
  let known = esmOnly.get(name);
  if (known === undefined) {
    const manifest = dependencyManifest(name);
    known =
      manifest?.type === 'module' && !JSON.stringify(manifest.exports ?? {}).includes('"require"');
    esmOnly.set(name, known);
  }
  return known;
}

/** The manifest of the installed package `name`, as Node finds it from this package's folder. */
function dependencyManifest(name) {
  for (let dir = process.cwd(); ; dir = dirname(dir)) {
    const path = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(path)) return JSON.parse(readFileSync(path, 'utf8'));
    if (dirname(dir) === dir) return undefined;
  }
}
