import type { Logger } from './logger.js';

/** How long a line, once logged, is not logged again: its repeats are counted meanwhile. */
export const REPEAT_WINDOW_MS = 60_000;

/** The most distinct lines remembered; past that the one logged longest ago is forgotten. */
const REMEMBERED_LINES = 500;

/**
 * Logs each line (the same level, message and details) at most once per REPEAT_WINDOW_MS; a line
 * that says anything new (another code, form or reason) is logged at once. A failure every mint
 * meets (the service down, the key revoked, `resolveUser` throwing) is then a line a minute, not
 * a line per mint: 1,000 failing mints were 1,000 lines.
 * The line logged once the window has passed carries `repeatsNotLogged`, how many of it were
 * left out since the last; the metrics have the counts. No timer: nothing keeps the process up.
 */
export function withoutRepeats(logger: Logger): Logger {
  const lastLogged = new Map<string, { at: number; repeats: number }>();
  const once =
    (level: keyof Logger): Logger[keyof Logger] =>
    (message, details) => {
      const line = `${level} ${message} ${JSON.stringify(details ?? {}, errorsAsText)}`;
      const now = Date.now();
      const last = lastLogged.get(line);
      if (last !== undefined && now - last.at < REPEAT_WINDOW_MS) {
        last.repeats += 1;
        return;
      }
      // Deleted and set again, so the map's first entry is always the one logged longest ago.
      lastLogged.delete(line);
      if (lastLogged.size >= REMEMBERED_LINES) {
        const oldest = lastLogged.keys().next().value;
        if (oldest !== undefined) lastLogged.delete(oldest);
      }
      lastLogged.set(line, { at: now, repeats: 0 });
      const repeats = last?.repeats ?? 0;
      logger[level](message, repeats > 0 ? { ...details, repeatsNotLogged: repeats } : details);
    };
  return { warn: once('warn'), error: once('error') };
}

/** An Error as its text: JSON.stringify writes every one as `{}`, which would make all one line. */
function errorsAsText(_key: string, value: unknown): unknown {
  return value instanceof Error ? String(value) : value;
}
