import { writeFile } from 'node:fs/promises';
import { type Figure, passes } from './figure.js';

export interface BenchReport {
  startedAt: string;
  durationS: number;
  machine: { node: string; cpus: number; platform: string; chromium?: string };
  /** What was changed from production defaults for the run. */
  notes: string[];
  figures: Figure[];
  /** A section that could not run, with why. */
  failures: { section: string; error: string }[];
}

const format = (value: number, unit: Figure['unit']) => {
  if (unit === 'ratio') return value.toFixed(2);
  if (unit === 'ms') return value.toFixed(1);
  if (unit === 'mints/s' || unit === 'µs') return value.toFixed(0);
  if (unit === 'requests') return Number.isInteger(value) ? String(value) : value.toFixed(3);
  return String(value);
};

const budgetText = (figure: Figure) => {
  const { budget } = figure;
  if (!budget) return '';
  const sign = budget.kind === 'max' ? '<=' : budget.kind === 'min' ? '>=' : '==';
  return `${sign} ${format(budget.value, figure.unit)}`;
};

/** The table, in plain text, one row per figure. */
function renderTable(report: BenchReport): string {
  const header = ['figure', 'unit', 'median', 'min', 'max', 'runs', 'budget', 'ok'];
  const rows = report.figures.map((figure) => {
    const ok = passes(figure);
    return [
      figure.label,
      figure.unit,
      format(figure.value.median, figure.unit),
      format(figure.value.min, figure.unit),
      format(figure.value.max, figure.unit),
      String(figure.value.runs),
      budgetText(figure),
      ok === undefined ? '' : ok ? 'pass' : 'FAIL',
    ];
  });
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] as string).length)),
  );
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0
          ? cell.padEnd(widths[column] as number)
          : cell.padStart(widths[column] as number),
      )
      .join('  ')
      .trimEnd();
  const out = [
    line(header),
    widths.map((width) => '-'.repeat(width)).join('  '),
    ...rows.map(line),
    ...trailer(report),
  ];
  return out.join('\n');
}

/** Below the table: the figures' details, the run conditions, failed sections and the verdict. */
function trailer(report: BenchReport): string[] {
  const out: string[] = [];
  const notes = report.figures
    .filter((figure) => figure.note)
    .map((f) => `  ${f.label}: ${f.note}`);
  if (notes.length > 0) out.push('', 'Details:', ...notes);
  out.push('', 'Run conditions:', ...report.notes.map((note) => `  - ${note}`));
  if (report.failures.length > 0) {
    out.push(
      '',
      'Sections that failed:',
      ...report.failures.map((f) => `  - ${f.section}: ${f.error}`),
    );
  }
  const failed = report.figures.filter((figure) => passes(figure) === false).length;
  const budgeted = report.figures.filter((figure) => passes(figure) !== undefined).length;
  out.push(
    '',
    `${budgeted - failed} of ${budgeted} budgets met; ${report.durationS.toFixed(0)} s.`,
  );
  return out;
}

/** Prints the table and writes the same figures to `bench-results.json` at the repository root. */
export async function writeReport(report: BenchReport): Promise<void> {
  console.log(`\n${renderTable(report)}`);
  const file = new URL('../bench-results.json', import.meta.url);
  const figures = report.figures.map((figure) => ({ ...figure, pass: passes(figure) ?? null }));
  await writeFile(file, `${JSON.stringify({ ...report, figures }, null, 2)}\n`);
  console.log('Figures written to bench-results.json');
}
