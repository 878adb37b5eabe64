// scripts/require-entries.mjs writes a package's `.d.cts` twins: an import of a package that is ES
// modules only becomes type-only with a resolution-mode, and any other reference to one, which
// would fail a CommonJS project's type check (skipLibCheck off), stops the build, naming the file.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('./require-entries.mjs', import.meta.url));
const folders = [];
after(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

const manifest = {
  name: '@form-embed/example',
  type: 'module',
  exports: {
    '.': {
      import: { types: './dist/index.d.ts', default: './dist/index.js' },
      require: {
        'types@<5.3': './dist/ts5.2/index.d.cts',
        types: './dist/index.d.cts',
        default: './dist/index.cjs',
      },
    },
  },
};

/** A built package whose dist/index.d.ts is `declarations`, beside `esm-only`, a package that is ES modules only; the script run in it. */
async function runWith(declarations) {
  const dir = await mkdtemp(join(tmpdir(), 'form-embed-require-entries-'));
  folders.push(dir);
  await mkdir(join(dir, 'dist'));
  await mkdir(join(dir, 'node_modules', 'esm-only'), { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify(manifest));
  await writeFile(join(dir, 'dist', 'index.js'), 'export {};\n');
  await writeFile(join(dir, 'dist', 'index.d.ts'), declarations);
  await writeFile(
    join(dir, 'node_modules', 'esm-only', 'package.json'),
    JSON.stringify({ name: 'esm-only', type: 'module', exports: { '.': './index.js' } }),
  );
  const { code, stderr } = await new Promise((resolve) => {
    execFile(process.execPath, [script], { cwd: dir }, (error, _out, err) =>
      resolve({ code: error ? error.code : 0, stderr: err }),
    );
  });
  const read = (file) => readFile(join(dir, 'dist', file), 'utf8').catch(() => undefined);
  return { code, stderr, twin: await read('index.d.cts'), legacy: await read('ts5.2/index.d.cts') };
}

test('an import of a package that is ES modules only, over several lines, becomes type-only and resolved as an import; dist/ts5.2 keeps it as it was', async () => {
  const declarations = `import {
  Base,
  type Options,
} from 'esm-only';
export declare class Example extends Base {
  options: Options;
}
`;
  const { code, stderr, twin, legacy } = await runWith(declarations);
  assert.equal(code, 0, stderr);
  assert.equal(
    twin,
    declarations
      .replace("} from 'esm-only';", "} from 'esm-only' with { 'resolution-mode': 'import' };")
      .replace('import {', 'import type {')
      .replace('type Options', 'Options'),
  );
  assert.equal(legacy, declarations);
});

for (const [kind, declarations] of [
  ['a re-export', "export { Base } from 'esm-only';\n"],
  ['an import() type', "export declare const base: import('esm-only').Base;\n"],
  ['an import for its side effects', "import 'esm-only';\nexport declare const x: number;\n"],
  ['an import = require', "import Base = require('esm-only');\nexport { Base };\n"],
]) {
  test(`${kind} of a package that is ES modules only stops the build, naming the file`, async () => {
    const { code, stderr } = await runWith(declarations);
    assert.equal(code, 1, stderr);
    assert.match(stderr, /index\.d\.cts: .*esm-only/);
  });
}
