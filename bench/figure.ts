import type { Summary } from './summary.js';

/** A row of the report: one measured figure, with its budget when one is set
 * (docs/architecture.md#budgets). */
export interface Figure {
  /** Stable key in bench-results.json, e.g. `bundle.withLit.gzip`. */
  id: string;
  label: string;
  unit: 'B' | 'mints/s' | 'ms' | 'µs' | 'ratio' | 'requests' | 'listeners' | 'KB';
  value: Summary;
  /** The budget on the median: `max` (at most) or `min` (at least) or `exact`. */
  budget?: { kind: 'max' | 'min' | 'exact'; value: number };
  note?: string;
}

export function passes(figure: Figure): boolean | undefined {
  const { budget, value } = figure;
  if (!budget) return undefined;
  if (budget.kind === 'max') return value.median <= budget.value;
  if (budget.kind === 'min') return value.median >= budget.value;
  return value.median === budget.value && value.min === value.max;
}
