/**
 * Where the middleware reports what an operator should know. `console` fits; so does any logger
 * with `warn` and `error` taking a message and a details object.
 */
export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
  error(message: string, details?: Record<string, unknown>): void;
}

const REDACTED = '[redacted]';

/**
 * Wraps `logger` so that no line can carry `secret` (the API key), whatever a details value
 * holds: every value is turned into text first, and the secret is cut out of it.
 */
export function redactingLogger(logger: Logger, secret: string): Logger {
  const clean = (text: string) => text.split(secret).join(REDACTED);
  const cleanDetails = (details: Record<string, unknown> | undefined) =>
    details === undefined
      ? undefined
      : Object.fromEntries(
          Object.entries(details).map(([name, value]) => [name, clean(describe(value))]),
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
