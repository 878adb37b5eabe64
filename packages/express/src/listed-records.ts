import type { z } from 'zod';
import { logOnce } from './log-once.js';
import { type Logger, shownValue } from './logger.js';

/** One list of the service's, as its records are read one at a time. */
export interface RecordKind<T> {
  /** How a log line names one of its records: `form`, `Core form`, `client`. */
  name: string;
  /** The field that names a record (`id`, `slug`). */
  ref: string;
  /** One record as the middleware reads it. */
  schema: z.ZodType<T>;
  /**
   * Fields the contract gives as a closed enum that the schema reads as any string, because
   * nothing the middleware decides reads them: each with its known values and what a record of a
   * value this release does not know comes to.
   */
  open?: Record<string, { known: readonly string[]; so: string }>;
}

/**
 * Reads the records of the service's lists one at a time (docs/contract.md#designer-forms): a
 * record that is not in the documented shape is left out alone, never the whole list, and a kept
 * record with a value this release does not know in an `open` field is read as any other. Either
 * is logged once, naming the value (`logOnce`).
 */
export class ListedRecords {
  readonly #tell: (line: string, key?: string) => void;

  constructor(logger: Logger) {
    this.#tell = logOnce(logger);
  }

  /** The records of `items` that read as `kind.schema`, in their order. */
  read<T>(items: readonly unknown[], kind: RecordKind<T>): T[] {
    const records: T[] = [];
    for (const item of items) {
      const parsed = kind.schema.safeParse(item);
      if (parsed.success) {
        this.#noteOpenValues(item as Record<string, unknown>, kind);
        records.push(parsed.data);
      } else {
        this.#tell(
          `the middleware leaves out ${this.#named(item, kind)}, which the service listed: ${reasonOf(item, parsed.error)}`,
        );
      }
    }
    return records;
  }

  #noteOpenValues(record: Record<string, unknown>, kind: RecordKind<unknown>) {
    for (const [field, { known, so }] of Object.entries(kind.open ?? {})) {
      const value = record[field];
      if (known.includes(value as string)) continue;
      this.#tell(
        `the service lists ${this.#named(record, kind)} with ${field} ${shownValue(value)}, which this release does not know: ${so}`,
        `${kind.name} ${field} ${shownValue(value)}`,
      );
    }
  }

  #named(item: unknown, kind: RecordKind<unknown>): string {
    const ref = (item as Record<string, unknown> | null)?.[kind.ref];
    return `${kind.name} ${typeof ref === 'string' ? shownValue(ref) : `with no ${kind.ref}`}`;
  }
}

/** What of `item` is not in the documented shape: the first field zod refused, and its value. */
function reasonOf(item: unknown, error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined || issue.path.length === 0) return 'it is not an object';
  let value: unknown = item;
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key];
  const field = issue.path.join('.');
  const shown =
    value === undefined ? 'is missing' : `${shownValue(value)} is not in the documented shape`;
  return `its ${field} ${shown} (${issue.message})`;
}
