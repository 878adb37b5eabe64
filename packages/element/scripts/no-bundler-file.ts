// The no-bundler file, `@form-embed/element/bundle`: `define` with Lit inside, minified, as one
// ES module a static page loads with <script type="module" src="…">. `npm run build` writes it;
// the size test and the bench measure the same build in memory.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';
import { minify } from 'terser';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * The members the element's two classes share (form-embed-status.ts), named here one by one and
 * shortened like `#private` ones: a pattern would also rename a future field that shares the
 * prefix, a mint answer's, say. One not listed keeps its name and costs only bytes.
 */
const SHARED_MEMBERS =
  /^_(setStatus|paintStatus|holdFocus|handFocusOver|retryPressed|currentMessages)$/;

/**
 * Lit's private members, which its production build names `_$E…` (ReactiveElement's `__…`
 * fields and methods): read only in reactive-element.js, which the bundle holds whole. Lit's
 * names shared between its packages and with its polyfill support are `_$A…`, and are kept.
 */
const LIT_PRIVATE_MEMBERS = /^_\$E/;

/** One minified ES module and the source files it holds, relative to the package. */
export interface BrowserBundle {
  code: Uint8Array;
  inputs: string[];
}

/**
 * The license block esbuild writes at the end of a bundle holding Lit, and the same two notices
 * (one holder, one licence) in one line, which gzips 50 B smaller. Only this exact block is
 * rewritten: any other (a new dependency, a Lit release with other notices) is kept as written.
 */
const LIT_NOTICES = `/*! Bundled license information:

@lit/reactive-element/css-tag.js:
  (**
   * @license
   * Copyright 2019 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)

@lit/reactive-element/reactive-element.js:
  (**
   * @license
   * Copyright 2017 Google LLC
   * SPDX-License-Identifier: BSD-3-Clause
   *)
*/
`;
const LIT_NOTICE =
  '/*! @lit/reactive-element: @license Copyright 2017, 2019 Google LLC, SPDX-License-Identifier: BSD-3-Clause */\n';

/**
 * `entry` for browsers: bundled by esbuild as a page's bundler would, then compressed again by
 * terser, which finds what esbuild's single-pass minifier leaves (about 2% of the gzip size).
 */
export async function bundleForBrowsers(
  entry: string,
  options: BuildOptions = {},
): Promise<BrowserBundle> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: packageDir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The workspace's sources: the same code the packages' dist holds, without a build order.
    conditions: ['@form-embed/source'],
    write: false,
    metafile: true,
    logLevel: 'warning',
    ...options,
  });
  const bundled = (result.outputFiles?.[0]?.text ?? '').replace(LIT_NOTICES, LIT_NOTICE);
  const { code = '' } = await minify(bundled, {
    module: true,
    ecma: 2020,
    // Nothing in the bundle reads a function's `length`, so unused trailing parameters may go;
    // nor constructs a function expression with `new` (classes do that), so the functions terser
    // inlines as immediately called expressions may become arrows.
    compress: { passes: 3, keep_fargs: false, unsafe_arrows: true },
    mangle: {
      properties: {
        regex: new RegExp(`${SHARED_MEMBERS.source}|${LIT_PRIVATE_MEMBERS.source}`),
        // Not as short names: those a page's subclass or a library most likely sets on an element.
        reserved: ['$', '_'],
      },
    },
    // Non-ASCII characters (the messages' `…`) as escapes: fewer bytes once gzip has coded the
    // repeats than their UTF-8, whose bytes occur nowhere else.
    format: { ascii_only: true },
  });
  return {
    code: new TextEncoder().encode(code),
    inputs: Object.keys(result.metafile?.inputs ?? {}),
  };
}

const BUNDLE_FILE = 'dist/form-embed.bundle.js';

/**
 * Bundles `src/define.ts`; `external` leaves packages out (to measure the element's own code),
 * `write` writes `dist/form-embed.bundle.js`.
 */
export async function bundleDefine({ write = false, external = [] as string[] } = {}) {
  const bundle = await bundleForBrowsers('src/define.ts', { external });
  if (write) {
    const file = join(packageDir, BUNDLE_FILE);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, bundle.code);
  }
  return bundle;
}

const DEVELOPMENT_BUNDLE_FILE = 'dist/form-embed.development.bundle.js';

/**
 * The same file for development, `dist/form-embed.development.bundle.js`: the development
 * warnings (`src/dev/define.ts`) and Lit's development build, for a page with no bundler to
 * resolve the `development` condition. Not minified: it is read while a page is built.
 */
export async function bundleDefineForDevelopment({ write = false } = {}) {
  const result = await build({
    entryPoints: ['src/dev/define.ts'],
    absWorkingDir: packageDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['development', '@form-embed/source'],
    write: false,
    metafile: true,
    logLevel: 'warning',
  });
  const bundle: BrowserBundle = {
    code: result.outputFiles?.[0]?.contents ?? new Uint8Array(),
    inputs: Object.keys(result.metafile?.inputs ?? {}),
  };
  if (write) await writeFile(join(packageDir, DEVELOPMENT_BUNDLE_FILE), bundle.code);
  return bundle;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await bundleDefine({ write: true });
  await bundleDefineForDevelopment({ write: true });
}
