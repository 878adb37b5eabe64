/** A figure measured several times: its median with the min and max beside it. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export function summarize(values: readonly number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    median: median(sorted),
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
    runs: sorted.length,
  };
}

/** The median of `values` (of the middle two, their mean); there must be at least one. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** One value measured once (deterministic figures: sizes, request counts). */
export function exactly(value: number): Summary {
  return { median: value, min: value, max: value, runs: 1 };
}
