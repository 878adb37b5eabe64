import { expandPath, parseRetryAfter, toImfFixdate } from '@form-embed/protocol';
import type { Logger } from './logger.js';
import { recordUpstream } from './metrics.js';
import type { FormEmbedSessionsConfig, UpstreamPaths } from './options.js';
import { cappedRetryAfter } from './session-error-response.js';
import type { UpstreamOutages } from './upstream-outages.js';
import { endpointOf, isRefusedRedirect, redirected, unavailable } from './upstream-unanswered.js';

export type UpstreamConfig = Pick<
  FormEmbedSessionsConfig,
  | 'apiKey'
  | 'baseUrl'
  | 'paths'
  | 'timeoutMs'
  | 'fetch'
  | 'maxUpstreamBodyBytes'
  | 'maxRetryAfterSeconds'
> & { logger: Logger; outages: UpstreamOutages };

export interface UpstreamRequest {
  method: 'GET' | 'POST';
  route: keyof UpstreamPaths;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /**
   * The controller that ends the request, when its caller may end it too (the browser it is for
   * has gone): once aborted, its reason is thrown as it is, neither logged nor recorded. The
   * timeout and the body cap abort the same controller: a signal of the caller's joined to ours
   * would cost a second signal and a listener, about 4 µs a request.
   */
  cutOff?: AbortController | undefined;
}

export interface UpstreamAnswer {
  status: number;
  /** `METHOD url` of the request, without its query, for a log line naming what was asked. */
  request: string;
  /**
   * `METHOD url` with the path as configured, `{formId}` unfilled: for a line that is one a minute
   * per endpoint, not one per form (repeated-lines.ts).
   */
  endpoint: string;
  /**
   * `Retry-After` as whole seconds, capped at `maxRetryAfterSeconds`; undefined when missing or
   * unreadable, and on a success, which never reads it.
   */
  retryAfter: string | undefined;
  /**
   * The parsed JSON body, `notJson`, `tooLarge` when it ran past `maxUpstreamBodyBytes`, or
   * `unreadable` when it broke off on the way.
   */
  body: unknown;
}

export const notJson = Symbol('not JSON');
export const tooLarge = Symbol('over maxUpstreamBodyBytes');
export const unreadable = Symbol('not read to its end');

/**
 * One request to the service: the API key as a Bearer token, no redirect followed, ended after
 * `timeoutMs` or by the caller (`request.cutOff`), and at most `maxUpstreamBodyBytes` of the
 * answer read. A timeout or a network failure is `unavailable` (logged without the request, which
 * holds the key).
 */
export async function requestUpstream(
  config: UpstreamConfig,
  request: UpstreamRequest,
): Promise<UpstreamAnswer> {
  const { method, route, params = {}, query, body, cutOff = new AbortController() } = request;
  cutOff.signal.throwIfAborted();
  const search = query === undefined ? '' : `?${new URLSearchParams(query)}`;
  const location = `${config.baseUrl}${expandPath(config.paths[route], params)}`;
  const url = `${location}${search}`;
  const asked = `${method} ${location}`;
  const headers: Record<string, string> = {
    Authorization: `Bearer ${config.apiKey}`,
    Accept: 'application/json',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  // One controller for every end: the timeout, the body cap and the caller. `AbortSignal.any`
  // over `AbortSignal.timeout` costs about ten times as much per request (weak refs, a second
  // signal).
  const timer = setTimeout(
    () => cutOff.abort(new DOMException('timeoutMs elapsed', 'TimeoutError')),
    config.timeoutMs,
  );
  const startedAt = performance.now();
  try {
    const response = await config.fetch(url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // Never followed: it would carry the key. Refused by fetch rather than read with 'manual',
      // which costs Node 20's fetch about 60 µs more CPU on every request, redirect or not (the
      // bench's middleware / anchor proxy ratio fell from 0.95 to 0.88 with it).
      redirect: 'error',
      signal: cutOff.signal,
    });
    // A body that broke off (not the Content-Encoding it names, a connection reset) is still an
    // answer, its status and Retry-After read: not the service unreached. A timeout or the
    // caller's abort while it was read is handled as before one came.
    const text = await readCapped(response, config.maxUpstreamBodyBytes, cutOff).catch(
      (error: unknown) => {
        if (cutOff.signal.aborted) throw error;
        return unreadable;
      },
    );
    recordUpstream(route, method, startedAt, response.status);
    config.outages.answered(method, route);
    return {
      status: response.status,
      request: asked,
      endpoint: endpointOf(config, request),
      // Read only on a refusal: a success has no use for it.
      retryAfter: response.ok ? undefined : retryAfterOf(response, config),
      body: typeof text === 'symbol' ? text : parseJson(text),
    };
  } catch (error) {
    if (request.cutOff !== undefined && isCallersAbort(cutOff.signal)) throw cutOff.signal.reason;
    if (isRefusedRedirect(error)) throw redirected(config, request, startedAt);
    throw unavailable(config, request, startedAt, error);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the request was ended by its caller: aborted, and not by the timeout (whichever ended
 * it first gave the reason; the body cap's abort throws nothing).
 */
function isCallersAbort(signal: AbortSignal): boolean {
  return signal.aborted && (signal.reason as Error | undefined)?.name !== 'TimeoutError';
}

/**
 * The body as text, or `tooLarge` as soon as more than `maxBytes` arrived (or were announced):
 * the rest is never read, and the connection is aborted. An uncompressed body whose
 * `Content-Length` is within the cap is read whole: HTTP/1.1 framing ends it there.
 */
async function readCapped(
  response: Response,
  maxBytes: number,
  cutOff: AbortController,
): Promise<string | typeof tooLarge> {
  const header = response.headers.get('Content-Length') ?? '';
  const announced = /^\d+$/.test(header) ? Number(header) : Number.NaN;
  if (announced <= maxBytes && !response.headers.has('Content-Encoding')) return response.text();
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  let chunk = announced > maxBytes ? undefined : await reader.read();
  while (chunk !== undefined && !chunk.done) {
    size += chunk.value.byteLength;
    if (size > maxBytes) break;
    chunks.push(chunk.value);
    chunk = await reader.read();
  }
  if (chunk?.done) return Buffer.concat(chunks).toString('utf8');
  cutOff.abort();
  await reader.cancel().catch(() => {});
  return tooLarge;
}

/**
 * `Retry-After` as a whole number of seconds, at most `maxRetryAfterSeconds`
 * (docs/contract.md#retry-after); undefined when missing or unreadable (a 429 of ours gets the
 * service's refill of a minute then: `UpstreamErrors`).
 */
function retryAfterOf(
  response: Response,
  config: Pick<UpstreamConfig, 'maxRetryAfterSeconds'>,
): string | undefined {
  const header = response.headers.get('Retry-After');
  const seconds = header === null ? undefined : parseRetryAfter(toImfFixdate(header));
  return seconds === undefined ? undefined : cappedRetryAfter(seconds, config.maxRetryAfterSeconds);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}
