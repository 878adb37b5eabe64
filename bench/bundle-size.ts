import { brotliCompressSync, constants } from 'node:zlib';
import { BUNDLE_BUDGET, measureBundle } from '../packages/element/test/bundle-size.js';
import type { Figure } from './figure.js';
import { exactly } from './summary.js';

const brotli = (bytes: Uint8Array) =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  }).byteLength;

/**
 * `<form-embed>` with Lit and without: minified, gzip (level 9) and brotli (quality 11). With Lit
 * it is the no-bundler file `@form-embed/element/bundle` byte for byte (one build function). Each
 * locale pack on its own, gzip.
 */
export async function benchBundleSize(): Promise<Figure[]> {
  const figures = await measureBundle();
  const rows: Figure[] = [];
  for (const name of ['withLit', 'ownCode'] as const) {
    const measured = figures[name];
    const label =
      name === 'withLit'
        ? '<form-embed> with Lit (= the no-bundler file)'
        : '<form-embed> own code (no Lit)';
    rows.push(
      {
        id: `bundle.${name}.minified`,
        label: `${label}, minified`,
        unit: 'B',
        value: exactly(measured.minified),
      },
      {
        id: `bundle.${name}.gzip`,
        label: `${label}, gzip -9`,
        unit: 'B',
        value: exactly(measured.gzip),
        budget: { kind: 'max', value: BUNDLE_BUDGET[name] },
      },
      {
        id: `bundle.${name}.brotli`,
        label: `${label}, brotli q11`,
        unit: 'B',
        value: exactly(brotli(measured.bytes)),
      },
    );
  }
  for (const [lang, measured] of Object.entries(figures.locales)) {
    rows.push({
      id: `bundle.locale.${lang}.gzip`,
      label: `locale pack ${lang}, gzip -9`,
      unit: 'B',
      value: exactly(measured.gzip),
      budget: { kind: 'max', value: BUNDLE_BUDGET.locale },
    });
  }
  return rows;
}
