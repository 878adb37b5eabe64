import { expandPath, parseRetryAfter, toImfFixdate } from '@form-embed/protocol';
import type { Logger } from './logger.js';
import { recordUpstream } from './metrics.js';
import type { FormEmbedSessionsConfig, UpstreamPaths } from './options.js';
import { cappedRetryAfter, sessionError } from './session-error-response.js';
import type { UpstreamOutages } from './upstream-outages.js';

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
  /** The parsed JSON body, `notJson`, or `tooLarge` when it ran past `maxUpstreamBodyBytes`. */
  body: unknown;
}

/** The two form-session endpoints, which answer every refusal of theirs as a SessionError. */
export function isFormSessionRoute(route: keyof UpstreamPaths): boolean {
  return route === 'formSession' || route === 'coreFormSession';
}

export const notJson = Symbol('not JSON');
export const tooLarge = Symbol('over maxUpstreamBodyBytes');

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
    const text = await readCapped(response, config.maxUpstreamBodyBytes, cutOff);
    recordUpstream(route, method, startedAt, response.status);
    config.outages.answered(method, route);
    return {
      status: response.status,
      request: asked,
      endpoint: endpointOf(config, request),
      // Read only on a refusal: a success has no use for it.
      retryAfter: response.ok ? undefined : retryAfterOf(response, config),
      body: text === tooLarge ? tooLarge : parseJson(text),
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
 * Whether `error` is fetch refusing a redirect (`redirect: 'error'`): Node's fetch says so in its
 * cause. Another `fetch` option's refusal reads as a network failure, `unavailable`.
 */
function isRefusedRedirect(error: unknown): boolean {
  return (
    (error as { cause?: { message?: unknown } } | undefined)?.cause?.message ===
    'unexpected redirect'
  );
}

/**
 * A redirect, which the same request meets again: the portal's configuration, not an outage. On
 * a form-session endpoint `invalid_request` (not retried), on a read `internal_error` (the
 * browser's request is not what was refused). Where it pointed is not known: fetch refused it
 * unread.
 */
function redirected(config: UpstreamConfig, { method, route }: UpstreamRequest, startedAt: number) {
  recordUpstream(route, method, startedAt, 'redirect');
  config.logger.error(
    `the service answered ${method} ${route} with a redirect, which the middleware does not follow (it would carry the API key): set baseUrl to the service's own address, https where it is served so, and check paths.${route}`,
  );
  return sessionError(
    isFormSessionRoute(route) ? 'invalid_request' : 'internal_error',
    'The service redirected the request, which the portal does not follow.',
  );
}

/**
 * A timeout or a network failure: `unavailable`, logged without the request (it holds the key)
 * and with the endpoint's path as configured, not its form id or client id: an outage is then one
 * line a minute per endpoint, not one per form (repeated-lines.ts).
 */
function unavailable(
  config: UpstreamConfig,
  { method, route }: UpstreamRequest,
  startedAt: number,
  error: unknown,
) {
  const timedOut = error instanceof Error && error.name === 'TimeoutError';
  recordUpstream(route, method, startedAt, timedOut ? 'timeout' : 'network');
  config.outages.failed(route);
  config.logger.warn(
    timedOut
      ? `the service did not answer ${method} ${route} within timeoutMs (${config.timeoutMs} ms)`
      : refusedCertificate(error)
        ? `the service's TLS certificate was refused for ${method} ${route}: ${CERTIFICATE_ADVICE}`
        : `the service could not be reached for ${method} ${route}`,
    { request: endpointOf(config, { method, route }), reason: describeCause(error) },
  );
  return sessionError(
    'unavailable',
    timedOut
      ? `The service did not answer within ${config.timeoutMs} ms.`
      : 'The service could not be reached.',
  );
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
 * limit window then: `UpstreamErrors`).
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

const CERTIFICATE_ADVICE =
  "the reason names why: one this Node does not trust (a private CA, or a proxy that inspects TLS: give Node that CA's certificate with NODE_EXTRA_CA_CERTS), an expired one, or one for another name";

/** Whether fetch failed on the service's certificate (Node's codes: DEPTH_ZERO_SELF_SIGNED_CERT…). */
function refusedCertificate(error: unknown): boolean {
  const code = error instanceof Error ? codeOf(error.cause) : undefined;
  return code !== undefined && /CERT|UNABLE_TO_(VERIFY|GET_ISSUER)/.test(code);
}

/** Names a fetch failure without its request (which holds the Authorization header). */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown failure';
  const code = codeOf(error.cause);
  if (code !== undefined) return `${error.name}: ${code}`;
  // fetch's own refusals (a port it will not use, say) have a message and no code.
  const { cause } = error;
  return cause instanceof Error
    ? `${error.name}: ${error.message} (${cause.message})`
    : `${error.name}: ${error.message}`;
}

/** The system error code (ECONNREFUSED) of a cause, or of the first of several (`localhost` on IPv4 and IPv6). */
function codeOf(cause: unknown): string | undefined {
  if (typeof cause !== 'object' || cause === null) return undefined;
  if ('code' in cause && cause.code !== undefined) return String(cause.code);
  const errors = (cause as { errors?: unknown }).errors;
  return Array.isArray(errors) ? codeOf(errors[0]) : undefined;
}

/** The endpoint of `request` as configured: its path unfilled. */
function endpointOf(
  config: UpstreamConfig,
  { method, route }: Pick<UpstreamRequest, 'method' | 'route'>,
) {
  return `${method} ${config.baseUrl}${config.paths[route]}`;
}
