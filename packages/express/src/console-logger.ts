import type { Logger } from './logger.js';

/**
 * The default logger: `console`, one line an entry with its level named (both levels go to
 * stderr), its details as JSON. A log shipper takes each line for an entry of its own: the details
 * object console prints over several lines came apart from its message.
 */
export const consoleLogger: Logger = {
  warn: (message, details) => console.warn(consoleLine('warn', message, details)),
  error: (message, details) => console.error(consoleLine('error', message, details)),
};

function consoleLine(level: string, message: string, details?: Record<string, unknown>) {
  return `[form-embed] ${level}: ${message}${details ? ` ${JSON.stringify(details)}` : ''}`;
}
