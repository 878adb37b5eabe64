import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { bundleDefine } from '../scripts/no-bundler-file.js';

/** DESIGN.md budgets, in bytes of gzip (level 9). */
export const BUNDLE_BUDGET = { withLit: 8.5 * 1024, ownCode: 2.5 * 1024 } as const;

/**
 * Own code, Lit excluded, may not grow past this while it is over BUNDLE_BUDGET.ownCode: a ratchet
 * a little above the last measured figure, to be lowered as the code shrinks.
 */
export const OWN_CODE_CEILING = 3_000;

export interface BundleFigures {
  /** The minified bundle itself, for other compressions (the benchmark's brotli). */
  bytes: Uint8Array;
  minified: number;
  gzip: number;
  /** The source files the bundle holds, relative to the package. */
  inputs: string[];
}

async function bundle(external: string[]): Promise<BundleFigures> {
  const result = await bundleDefine({ external });
  const code = result.outputFiles?.[0]?.contents ?? new Uint8Array();
  return {
    bytes: code,
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    inputs: Object.keys(result.metafile.inputs),
  };
}

/** Bundles `@form-embed/element/define` as a page would: with Lit, and with Lit left out. */
export async function measureBundle() {
  const [withLit, ownCode] = await Promise.all([
    bundle([]),
    bundle(['lit', 'lit/*', '@lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*']),
  ]);
  return { withLit, ownCode };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { withLit, ownCode } = await measureBundle();
  for (const [name, figures] of Object.entries({ withLit, ownCode })) {
    const budget = BUNDLE_BUDGET[name as keyof typeof BUNDLE_BUDGET];
    console.log(
      `${name}: ${figures.minified} B min, ${figures.gzip} B gzip (budget ${budget} B gzip)`,
    );
  }
}
