import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build, transform } from 'esbuild';
import { bundleDefine } from '../scripts/no-bundler-file.js';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** The no-bundler file shares the bundled figure's budget (6 KB gzip, Lit included). */
const NO_BUNDLER_BUDGET = 6_144;

describe('the no-bundler file (@form-embed/element/bundle)', () => {
  test(`is one ES module with nothing left to import, within ${NO_BUNDLER_BUDGET} B gzip`, async () => {
    const { code } = await bundleDefine();
    const text = new TextDecoder().decode(code);
    assert.ok(!/\bimport\s*[\w{*"'(]/.test(text), 'the file still imports a module');
    assert.ok(text.includes('customElements'), 'the file does not register the element');
    const gzip = gzipSync(code, { level: 9 }).byteLength;
    assert.ok(gzip <= NO_BUNDLER_BUDGET, `${gzip} B gzip > ${NO_BUNDLER_BUDGET} B`);
  });
});

describe('entries', () => {
  test('the core entries never import react or @lit/react; the react entry does', async () => {
    const inputsOf = async (entry: string) => {
      const result = await build({
        entryPoints: [entry],
        bundle: true,
        write: false,
        metafile: true,
        format: 'esm',
        platform: 'browser',
        conditions: ['@form-embed/source'],
        absWorkingDir: packageDir,
        logLevel: 'silent',
      });
      return Object.keys(result.metafile.inputs).join('\n');
    };
    for (const entry of ['src/index.ts', 'src/define.ts', 'src/react-jsx.ts']) {
      assert.doesNotMatch(await inputsOf(entry), /node_modules\/(react|@lit\/react)\//, entry);
    }
    assert.match(await inputsOf('src/react.ts'), /node_modules\/@lit\/react\//);
  });

  /** The package's modules that `entry` runs, in order: esbuild's output names each with a `// path` line. */
  const modulesRun = async (entry: string, conditions: string[]) => {
    const result = await build({
      stdin: { contents: `export * from '${entry}';`, resolveDir: packageDir },
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'browser',
      conditions,
      // Resolved through the package's exports, as a partner's bundler does: not the repository's paths.
      tsconfigRaw: '{}',
      logLevel: 'silent',
    });
    const code = result.outputFiles?.[0]?.text ?? '';
    return [...code.matchAll(/^\/\/ (src\/\S+\.ts)$/gm)].map(([, path]) => path ?? '');
  };
  for (const name of [
    '@form-embed/element',
    '@form-embed/element/define',
    '@form-embed/element/react',
  ]) {
    test(`${name}: the development condition runs the warnings before the element registers; without it there are none`, async () => {
      const development = await modulesRun(name, ['development', '@form-embed/source']);
      const warnings = development.indexOf('src/dev/warnings.ts');
      const registers = development.indexOf('src/define.ts');
      assert.ok(warnings >= 0, `no warnings in ${development.join(', ')}`);
      assert.ok(registers === -1 || warnings < registers, development.join(', '));
      const production = await modulesRun(name, ['@form-embed/source']);
      assert.ok(production.includes('src/form-embed-element.ts'), production.join(', '));
      assert.ok(!production.some((path) => path.includes('src/dev/')), production.join(', '));
    });
  }

  // `/react` registers the tag only when a <FormEmbed> mounts (see its server-rendering test).
  for (const name of ['@form-embed/element/define']) {
    test(`a bare import of ${name} registers the element: the bundler keeps it (sideEffects)`, async () => {
      const result = await build({
        stdin: { contents: `import '${name}';`, resolveDir: packageDir },
        bundle: true,
        write: false,
        format: 'esm',
        platform: 'browser',
        conditions: ['@form-embed/source'],
        external: ['react'],
        tsconfigRaw: '{}',
        logLevel: 'silent',
      });
      assert.match(result.outputFiles?.[0]?.text ?? '', /customElements\.define\(/);
    });
  }

  // Next.js's App Router renders a page as a Server Component, where React has no hooks: a
  // <FormEmbed> imported there failed with `useSyncExternalStore is not a function` unless the
  // entry says it is a client module. Next's webpack build refuses `export *` from one.
  for (const file of ['src/react.ts', 'src/dev/react.ts']) {
    test(`${file} compiles to a 'use client' module with named exports (React Server Components)`, async () => {
      const source = await readFile(join(packageDir, file), 'utf8');
      // esbuild drops the comments and types and keeps the directive, as tsc does.
      const { code } = await transform(source, {
        loader: 'ts',
        format: 'esm',
        legalComments: 'none',
      });
      assert.match(
        code,
        /^"use client";\n/,
        `${file} does not begin with 'use client':\n${code.slice(0, 300)}`,
      );
      assert.doesNotMatch(code, /^export \*/m, `${file} has export *`);
    });
  }

  // The development entry names its re-exports (above): one added to the plain entry must be
  // named there too, or a page built with the development condition goes without it.
  test('the development react entry exports what the plain one does', async () => {
    const plain = await import('../src/react.js');
    const development = await import('../src/dev/react.js');
    assert.deepEqual(Object.keys(development).sort(), Object.keys(plain).sort());
  });

  test('the element entry re-exports what a host needs to handle failures', async () => {
    const element = await import('@form-embed/element');
    const protocol = await import('@form-embed/protocol/browser');
    assert.equal(element.FormSessionError, protocol.FormSessionError);
  });
});
