import { secretRedactor } from './secret-redaction.js';
/**
 * Where the middleware reports what an operator should know. `console` fits; so does any logger
 * with `warn` and `error` taking a message and a details object, and a pino logger as it is
 * (called the pino way, details first, so they become fields of the line).
 */
export interface Logger {
  /** To look at: the service slow or failing, a setting that works but may be a mistake. */
  warn(message: string, details?: Record<string, unknown>): void;
  /**
   * Needs someone to act: requests fail, or go on without a safeguard (a setting, `resolveUser`
   * throwing, an answer outside the contract, the limit store down).
   */
  error(message: string, details?: Record<string, unknown>): void;
}

/** A pino logger, told apart from others by pino's `levels` object (`{labels, values}`). */
interface PinoLike {
  levels: { labels: object; values: object };
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

function isPino(logger: object): logger is PinoLike {
  const levels = (logger as { levels?: unknown }).levels;
  return (
    typeof levels === 'object' &&
    levels !== null &&
    typeof (levels as PinoLike['levels']).labels === 'object' &&
    typeof (levels as PinoLike['levels']).values === 'object'
  );
}

/**
 * Characters a log line does not show as themselves: control, format, line and paragraph
 * separators. Text from the service must not carry them into a line (a line break would forge a
 * line of its own).
 */
export const INVISIBLE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

/** The most characters of a value from the service that reach a log line. */
const SHOWN_VALUE_MAX = 100;

/**
 * A value the service sent, fit for a log line: quoted, cut at `SHOWN_VALUE_MAX` characters, with
 * line breaks, control and format characters escaped (one holding a line break would otherwise
 * forge a line of its own).
 */
export function shownValue(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const quoted = escapedInvisible(JSON.stringify(text.slice(0, SHOWN_VALUE_MAX)));
  return text.length > SHOWN_VALUE_MAX ? `${quoted}… (${text.length} characters)` : quoted;
}

/**
 * `text` with its `INVISIBLE` characters written as `\uXXXX` escapes: for what a sender chose
 * (a header) and a line quotes unquoted. Node lets bytes 0x80 to 0xFF into a header value, read as
 * U+0080 to U+00FF: NEL (U+0085) is a line break to many log readers, CSI (U+009B) a terminal's.
 */
export function escapedInvisible(text: string): string {
  return text.replace(
    INVISIBLE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** `logger` as the middleware calls it: a pino logger gets `(details, message)`, others as given. */
export function messageFirst(logger: Logger): Logger {
  if (!isPino(logger)) return logger;
  const pino = logger;
  return {
    warn: (message, details) => pino.warn(details ?? {}, message),
    error: (message, details) => pino.error(details ?? {}, message),
  };
}

/**
 * Wraps `logger` so that no line can carry `secret` (the API key), whatever a details value
 * holds: every value is turned into text first, and the secret is cut out of it, in its encoded
 * forms too (URL-encoded, base64, hex). A number or a boolean whose text holds no secret stays
 * as it is, so that a JSON log's numeric fields (`outageSeconds`) can be compared as numbers.
 */
export function redactingLogger(logger: Logger, secret: string): Logger {
  const clean = secretRedactor(secret);
  const cleanValue = (value: unknown) => {
    const text = clean(describe(value));
    const scalar = typeof value === 'number' || typeof value === 'boolean';
    return scalar && text === String(value) ? value : text;
  };
  const cleanDetails = (details: Record<string, unknown> | undefined) =>
    details === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(details).map(([name, value]) => [name, cleanValue(value)]),
        );
  return {
    warn: (message, details) => logger.warn(clean(message), cleanDetails(details)),
    error: (message, details) => logger.error(clean(message), cleanDetails(details)),
  };
}

/** Text for a logged value; an Error is described by its name and message only, never its cause chain. */
export function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
