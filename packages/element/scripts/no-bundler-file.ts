// The no-bundler file, `@form-embed/element/bundle`: `define` with Lit inside, minified, as one
// ES module a static page loads with <script type="module" src="…">. `npm run build` writes it;
// the size test and the bench measure the same build in memory.
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

/**
 * Bundles `src/define.ts` for browsers; `external` leaves packages out (to measure the
 * element's own code), `write` writes `dist/form-embed.bundle.js`.
 */
export function bundleDefine({ write = false, external = [] as string[] } = {}) {
  return build({
    entryPoints: ['src/define.ts'],
    outfile: 'dist/form-embed.bundle.js',
    absWorkingDir: packageDir,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    // The workspace's sources: the same code the packages' dist holds, without a build order.
    conditions: ['source'],
    external,
    write,
    metafile: true,
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await bundleDefine({ write: true });
