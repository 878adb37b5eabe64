import type { Logger } from './logger.js';

/** How long a line, once logged, is not logged again: its repeats are counted meanwhile. */
export const REPEAT_WINDOW_MS = 60_000;

/**
 * The most distinct lines, and messages, remembered; past that the one logged longest ago is
 * forgotten.
 */
const REMEMBERED_LINES = 500;

/**
 * Distinct lines of one message logged in a window at most: a message whose details carry the
 * sender's values (`authorize threw` for each made-up form id) is then ten lines a minute, and
 * its flood cannot push other lines out of the REMEMBERED_LINES.
 */
export const LINES_PER_MESSAGE = 10;

interface LoggedLine {
  at: number;
  /** Left out since it was logged. */
  repeats: number;
}

interface MessageWindow {
  since: number;
  /** Its distinct lines logged since. */
  lines: number;
  /** Its lines left out past LINES_PER_MESSAGE, since the last one logged. */
  notLogged: number;
}

/**
 * Logs each line (the same level, message and details) at most once per REPEAT_WINDOW_MS; a line
 * that says anything new (another code, form or reason) is logged at once, up to
 * LINES_PER_MESSAGE of one message a window. A failure every mint meets (the service down, the
 * key revoked, `resolveUser` throwing) is then a line a minute, not a line per mint: 1,000
 * failing mints were 1,000 lines.
 * The next line logged after what was left out says how many: `repeatsNotLogged` (of itself) and
 * `similarNotLogged` (of its message, with other details); the metrics have the counts. No timer:
 * nothing keeps the process up.
 */
export function withoutRepeats(logger: Logger): Logger {
  const lines = new Map<string, LoggedLine>();
  const messages = new Map<string, MessageWindow>();
  const once =
    (level: keyof Logger): Logger[keyof Logger] =>
    (message, details) => {
      const kind = `${level} ${message}`;
      const line = `${kind} ${JSON.stringify(details ?? {}, errorsAsText)}`;
      const now = Date.now();
      const last = lines.get(line);
      if (last !== undefined && now - last.at < REPEAT_WINDOW_MS) {
        last.repeats += 1;
        return;
      }
      let window = messages.get(kind);
      if (window === undefined || now - window.since >= REPEAT_WINDOW_MS) {
        const notLogged = window?.notLogged ?? 0;
        window = remember(messages, kind, { since: now, lines: 0, notLogged });
      }
      if (window.lines >= LINES_PER_MESSAGE) {
        window.notLogged += 1;
        return;
      }
      window.lines += 1;
      remember(lines, line, { at: now, repeats: 0 });
      const counts = {
        ...(last?.repeats ? { repeatsNotLogged: last.repeats } : {}),
        ...(window.notLogged ? { similarNotLogged: window.notLogged } : {}),
      };
      window.notLogged = 0;
      logger[level](message, Object.keys(counts).length > 0 ? { ...details, ...counts } : details);
    };
  return { warn: once('warn'), error: once('error') };
}

/**
 * Sets `key` as the map's last entry, so that its first is always the one set longest ago, which
 * is forgotten when the map holds REMEMBERED_LINES.
 */
function remember<T>(map: Map<string, T>, key: string, value: T): T {
  map.delete(key);
  if (map.size >= REMEMBERED_LINES) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
  map.set(key, value);
  return value;
}

/** An Error as its text: JSON.stringify writes every one as `{}`, which would make all one line. */
function errorsAsText(_key: string, value: unknown): unknown {
  return value instanceof Error ? String(value) : value;
}
