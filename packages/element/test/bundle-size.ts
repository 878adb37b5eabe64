import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { type BrowserBundle, bundleDefine, bundleForBrowsers } from '../scripts/no-bundler-file.js';

/** The budgets, in bytes of gzip (level 9): the whole element, its own code, each locale pack. */
export const BUNDLE_BUDGET = { withLit: 6_144, ownCode: 3_072, locale: 600 } as const;

/**
 * Own code, Lit excluded, may not grow past this while it is over BUNDLE_BUDGET.ownCode: a ratchet
 * a little above the last measured figure, to be lowered as the code shrinks.
 */
export const OWN_CODE_CEILING = 3_817;

/** The locale packs shipped as `@form-embed/element/locales/<lang>`. */
export const LOCALES = [
  'de',
  'fr',
  'es',
  'it',
  'nl',
  'pl',
  'pt-BR',
  'sv',
  'ar',
  'ja',
  'ko',
  'zh-CN',
  'zh-TW',
] as const;

export interface BundleFigures {
  /** The minified bundle itself, for other compressions (the benchmark's brotli). */
  bytes: Uint8Array;
  minified: number;
  gzip: number;
  /** The source files the bundle holds, relative to the package. */
  inputs: string[];
}

function figuresOf({ code, inputs }: BrowserBundle): BundleFigures {
  return {
    bytes: code,
    minified: code.byteLength,
    gzip: gzipSync(code, { level: 9 }).byteLength,
    inputs,
  };
}

/** A locale pack as a page's bundler would take it in, on its own. */
async function bundleLocale(lang: string) {
  return figuresOf(await bundleForBrowsers(`src/locales/${lang}.ts`, { logLevel: 'silent' }));
}

/**
 * Bundles `@form-embed/element/define` as a page would (the no-bundler file's build, which has no
 * `development` condition): with Lit, and with Lit left out; and each locale pack on its own.
 */
export async function measureBundle() {
  const lit = ['lit', 'lit/*', '@lit/*', 'lit-html', 'lit-html/*', 'lit-element', 'lit-element/*'];
  const [withLit, ownCode, ...locales] = await Promise.all([
    bundleDefine().then(figuresOf),
    bundleDefine({ external: lit }).then(figuresOf),
    ...LOCALES.map(bundleLocale),
  ]);
  return {
    withLit: withLit as BundleFigures,
    ownCode: ownCode as BundleFigures,
    locales: Object.fromEntries(LOCALES.map((lang, i) => [lang, locales[i] as BundleFigures])),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { withLit, ownCode, locales } = await measureBundle();
  const rows = { withLit, ownCode, ...locales };
  for (const [name, figures] of Object.entries(rows)) {
    const budget = BUNDLE_BUDGET[name as 'withLit'] ?? BUNDLE_BUDGET.locale;
    console.log(
      `${name}: ${figures.minified} B min, ${figures.gzip} B gzip (budget ${budget} B gzip)`,
    );
  }
}
