// The no-bundler file, `@form-embed/element/bundle`: `define` with Lit inside, minified, as one
// ES module a static page loads with <script type="module" src="…">. `npm run build` writes it;
// the size test and the bench measure the same build in memory.
import { fileURLToPath } from 'node:url';
import { type BuildOptions, build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/** esbuild's build of `entry` for browsers as a page's bundler would make it: one minified ES module. */
export function bundleForBrowsers(entry: string, options: BuildOptions = {}) {
  return build({
    entryPoints: [entry],
    absWorkingDir: packageDir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The workspace's sources: the same code the packages' dist holds, without a build order.
    conditions: ['source'],
    write: false,
    metafile: true,
    logLevel: 'warning',
    ...options,
  });
}

/**
 * Bundles `src/define.ts`; `external` leaves packages out (to measure the element's own code),
 * `write` writes `dist/form-embed.bundle.js`.
 */
export function bundleDefine({ write = false, external = [] as string[] } = {}) {
  return bundleForBrowsers('src/define.ts', {
    outfile: 'dist/form-embed.bundle.js',
    external,
    write,
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleDefine({ write: true });
