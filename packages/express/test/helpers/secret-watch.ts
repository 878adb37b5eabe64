import assert from 'node:assert/strict';
import type { Logger } from '@form-embed/express';

export interface LogLine {
  level: 'info' | 'warn' | 'error';
  message: string;
  details: Record<string, unknown> | undefined;
}

/**
 * Everything that left the middleware towards the browser or the operator in one test file:
 * each response (status line, headers, body) and each log line, as text, and every form-session
 * handle the service minted meanwhile. `assertNoSecret` proves no API key is in any of it (also encoded) and
 * no handle is in any of it but a mint answer's `embedUrl`.
 */
export class SecretWatch {
  readonly texts: string[] = [];
  readonly logLines: LogLine[] = [];
  /** The same texts with a mint answer's `embedUrl` value cut out: the one place a handle belongs. */
  readonly #outsideEmbedUrl: string[] = [];
  readonly #handles = new Set<string>();
  readonly #pending: Promise<void>[] = [];

  readonly logger: Logger = {
    warn: (message, details) => this.#log('warn', message, details),
    error: (message, details) => this.#log('error', message, details),
  };

  /** The handles seen so far in the service's form-session answers. */
  get handles(): ReadonlySet<string> {
    return this.#handles;
  }

  #log(level: LogLine['level'], message: string, details?: Record<string, unknown>): void {
    this.logLines.push({ level, message, details });
    const text = `${level} ${message} ${JSON.stringify(details ?? {})}`;
    this.texts.push(text);
    this.#outsideEmbedUrl.push(text);
  }

  /** A line a logger other than `logger` (e.g. pino) wrote. */
  recordLogLine(line: string): void {
    this.texts.push(line);
    this.#outsideEmbedUrl.push(line);
  }

  record(response: Pick<Response, 'status' | 'headers'>, body: string): void {
    const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).join('\n');
    this.texts.push(`${response.status}\n${headers}\n\n${body}`);
    this.#outsideEmbedUrl.push(`${response.status}\n${headers}\n\n${withoutEmbedUrl(body)}`);
  }

  /**
   * Collects the handles of an upstream form-session answer (`formSessionHandle` and the
   * `handle=` of `embedUrl`) from a clone, so the middleware reads the answer undisturbed.
   */
  watchUpstreamAnswer(response: Response): void {
    this.#pending.push(
      response
        .clone()
        .text()
        .then((text) => this.#collectHandles(text))
        .catch(() => {}),
    );
  }

  /**
   * Collects the handles of a mint answer's text as well, for a middleware whose upstream this
   * watch cannot see (one in another process): the answer's `embedUrl` carries the handle.
   */
  collectHandles(text: string): void {
    this.#collectHandles(text);
  }

  #collectHandles(text: string): void {
    const body = parseJson(text) as { formSessionHandle?: unknown; embedUrl?: unknown } | undefined;
    if (typeof body?.formSessionHandle === 'string') this.#handles.add(body.formSessionHandle);
    if (typeof body?.embedUrl === 'string' && URL.canParse(body.embedUrl)) {
      const handle = new URL(body.embedUrl).searchParams.get('handle');
      if (handle) this.#handles.add(handle);
    }
  }

  /** Resolves once every upstream answer seen so far has given up its handles. */
  async settled(): Promise<void> {
    await Promise.all(this.#pending);
  }

  async assertNoSecret(apiKeys: readonly string[]): Promise<void> {
    await this.settled();
    assert.ok(this.texts.length > 0, 'the watch saw nothing: it is not wired in');
    for (const secret of apiKeys.flatMap(encodedForms)) {
      const leaks = this.texts.filter((text) => text.includes(secret));
      assert.deepEqual(leaks, [], 'an API key reached a response or a log line');
    }
    for (const handle of this.#handles) {
      const leaks = this.#outsideEmbedUrl.filter((text) => text.includes(handle));
      assert.deepEqual(leaks, [], 'a handle reached a log line or a response outside embedUrl');
    }
  }
}

/** The key as is, percent-encoded byte by byte, and in base64 and base64url. */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const percent = [...bytes].map((byte) => `%${byte.toString(16).toUpperCase()}`).join('');
  return [secret, percent, bytes.toString('base64'), bytes.toString('base64url')];
}

/** The body with the `embedUrl` of a mint answer (a JSON object) replaced by a placeholder. */
function withoutEmbedUrl(body: string): string {
  const parsed = parseJson(body);
  if (typeof parsed !== 'object' || parsed === null || !('embedUrl' in parsed)) return body;
  return JSON.stringify({ ...parsed, embedUrl: '[embedUrl]' });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
