import assert from 'node:assert/strict';
import type { Logger } from '@form-embed/express';

export interface LogLine {
  level: 'warn' | 'error';
  message: string;
  details: Record<string, unknown> | undefined;
}

/**
 * Everything that left the middleware towards the browser or the operator in one test file:
 * each response (status line, headers, body) and each log line, as text. `assertNoSecret`
 * proves no API key is in any of it.
 */
export class SecretWatch {
  readonly texts: string[] = [];
  readonly logLines: LogLine[] = [];

  readonly logger: Logger = {
    warn: (message, details) => this.#log('warn', message, details),
    error: (message, details) => this.#log('error', message, details),
  };

  #log(level: LogLine['level'], message: string, details?: Record<string, unknown>): void {
    this.logLines.push({ level, message, details });
    this.texts.push(`${level} ${message} ${JSON.stringify(details ?? {})}`);
  }

  record(response: Response, body: string): void {
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    this.texts.push(`${response.status}\n${headers}\n\n${body}`);
  }

  assertNoSecret(secrets: readonly string[]): void {
    assert.ok(this.texts.length > 0, 'the watch saw nothing: it is not wired in');
    for (const secret of secrets) {
      const leaks = this.texts.filter((text) => text.includes(secret));
      assert.deepEqual(leaks, [], 'an API key reached a response or a log line');
    }
  }
}
