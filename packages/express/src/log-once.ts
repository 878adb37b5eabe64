import type { Logger } from './logger.js';

/** Distinct keys remembered at most; past it they are forgotten, and told again when seen. */
const MAX_TOLD = 1_000;

/**
 * A function that logs a line once per `key` (the line itself unless given), at `level`, until
 * `MAX_TOLD` distinct keys were told, then forgets them: a service sending new values must not
 * grow memory.
 */
export function logOnce(
  logger: Logger,
  level: keyof Logger = 'warn',
): (line: string, key?: string) => void {
  const told = new Set<string>();
  return (line, key = line) => {
    if (told.has(key)) return;
    if (told.size >= MAX_TOLD) told.clear();
    told.add(key);
    logger[level](line);
  };
}
