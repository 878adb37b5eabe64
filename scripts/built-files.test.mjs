// The check each package's `prepack` runs, so that `npm publish` never ships a package unbuilt
// or built from older sources than it holds.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { builtFileProblems } from './built-files.mjs';

const manifest = {
  name: '@form-embed/example',
  main: './dist/index.cjs',
  types: './dist/index.d.ts',
  bin: { example: 'dist/cli.js' },
  customElements: 'custom-elements.json',
  typesVersions: { '*': { 'locales/*': ['./dist/locales/*.d.ts'] } },
  exports: {
    '.': {
      import: {
        types: './dist/index.d.ts',
        '@form-embed/source': './src/index.ts',
        default: './dist/index.js',
      },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    },
    './locales/*': { import: { default: './dist/locales/*.js' } },
    './package.json': './package.json',
  },
};
const sources = ['src/index.ts', 'src/cli.ts', 'src/locales/de.ts'];
const built = [
  'dist/index.js',
  'dist/index.cjs',
  'dist/index.d.ts',
  'dist/index.d.cts',
  'dist/cli.js',
  'dist/locales/de.js',
  'dist/locales/de.d.ts',
  'custom-elements.json',
];

const folders = [];
after(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

async function packageWith(files) {
  const dir = await mkdtemp(join(tmpdir(), 'form-embed-built-files-'));
  folders.push(dir);
  for (const file of ['package.json', ...files]) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), file === 'package.json' ? JSON.stringify(manifest) : '');
  }
  return dir;
}

test('an unbuilt package names each file its manifest points to that is missing, once', async () => {
  assert.deepEqual(await builtFileProblems(await packageWith(sources)), [
    'no ./dist/index.cjs (main): run npm run build at the repository root',
    'no ./dist/index.d.ts (types): run npm run build at the repository root',
    'no custom-elements.json (customElements): run npm run build at the repository root',
    'no dist/cli.js (bin.example): run npm run build at the repository root',
    'no file for ./dist/locales/*.d.ts (typesVersions.*.locales/*): run npm run build at the repository root',
    'no ./dist/index.js (exports["."].import.default): run npm run build at the repository root',
    'no ./dist/index.d.cts (exports["."].require.types): run npm run build at the repository root',
    'no file for ./dist/locales/*.js (exports["./locales/*"].import.default): run npm run build at the repository root',
    'no dist/cli.js built from src/cli.ts: run npm run build at the repository root',
    'no dist/index.js built from src/index.ts: run npm run build at the repository root',
    'no dist/locales/de.js built from src/locales/de.ts: run npm run build at the repository root',
  ]);
});

test('a built package has no problem', async () => {
  assert.deepEqual(await builtFileProblems(await packageWith([...sources, ...built])), []);
});

test('a source changed after the build is named', async () => {
  const dir = await packageWith([...sources, ...built]);
  const later = new Date(Date.now() + 60_000);
  await utimes(join(dir, 'src/locales/de.ts'), later, later);
  assert.deepEqual(await builtFileProblems(dir), [
    'src/locales/de.ts changed after dist/locales/de.js was built: run npm run build at the repository root',
  ]);
});
