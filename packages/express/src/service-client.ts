import {
  expandPath,
  type FormSession,
  FormSessionSchema,
  type FormTarget,
  parseRetryAfter,
  readSessionError,
  type ServicePaths,
  type SessionErrorDetail,
} from '@form-embed/protocol';
import type { z } from 'zod';
import type { Logger } from './logger.js';
import { recordUpstream } from './metrics.js';
import type { FormEmbedSessionsConfig, ResolvedUser } from './options.js';
import { SessionErrorResponse, sessionError } from './session-error-response.js';

type ServiceClientConfig = Pick<
  FormEmbedSessionsConfig,
  'apiKey' | 'baseUrl' | 'paths' | 'timeoutMs' | 'fetch'
> & { logger: Logger };

interface UpstreamAnswer {
  status: number;
  retryAfter: string | undefined;
  /** The parsed JSON body, or `notJson` when the body is not JSON. */
  body: unknown;
}

const notJson = Symbol('not JSON');

/**
 * The service's API as the middleware uses it: every request carries the API key as a Bearer
 * token, ends after `timeoutMs`, follows no redirect, and every failure comes out as a
 * SessionErrorResponse (a timeout or a network failure is `unavailable`, an answer not in the
 * documented shape is `internal_error`). Nothing of the answer is forwarded but what the
 * caller picks, so the organisation's `X-RateLimit-*` headers stay here.
 */
export class ServiceClient {
  readonly #config: ServiceClientConfig;

  constructor(config: ServiceClientConfig) {
    this.#config = config;
  }

  /** One `POST` to the form-session endpoint of `target`, with `{user}` and nothing else. */
  async mint(target: FormTarget, user: ResolvedUser): Promise<FormSession> {
    const [route, params] =
      target.kind === 'form'
        ? (['formSession', { formId: target.formId }] as const)
        : (['coreFormSession', { slug: target.slug }] as const);
    const answer = await this.#request('POST', route, params, user === undefined ? {} : { user });
    if (answer.status >= 200 && answer.status < 300) {
      const session = FormSessionSchema.safeParse(answer.body);
      if (session.success) return session.data;
      throw this.#badShape(route, answer.status);
    }
    const detail = answer.body === notJson ? undefined : readSessionError(answer.body);
    if (detail === undefined) throw this.#plainError(route, answer);
    throw this.#passThrough(route, detail, answer);
  }

  /**
   * A `GET` whose answer must match `schema`. With `notFound: 'undefined'` a 404 resolves to
   * undefined (for lookups where "no such record" is an answer, not a failure).
   */
  async read<T>(
    route: keyof ServicePaths,
    schema: z.ZodType<T>,
    options: {
      params?: Record<string, string>;
      query?: Record<string, string>;
      notFound?: 'undefined';
    } = {},
  ): Promise<T | undefined> {
    const answer = await this.#request(
      'GET',
      route,
      options.params ?? {},
      undefined,
      options.query,
    );
    if (answer.status === 404 && options.notFound === 'undefined') return undefined;
    if (answer.status >= 200 && answer.status < 300) {
      const parsed = schema.safeParse(answer.body);
      if (parsed.success) return parsed.data;
      throw this.#badShape(route, answer.status);
    }
    const detail = answer.body === notJson ? undefined : readSessionError(answer.body);
    if (detail !== undefined) throw this.#passThrough(route, detail, answer);
    throw this.#plainError(route, answer);
  }

  async #request(
    method: 'GET' | 'POST',
    route: keyof ServicePaths,
    params: Record<string, string>,
    body?: unknown,
    query?: Record<string, string>,
  ): Promise<UpstreamAnswer> {
    const { baseUrl, paths, apiKey, timeoutMs } = this.#config;
    const search = query === undefined ? '' : `?${new URLSearchParams(query)}`;
    const url = `${baseUrl}${expandPath(paths[route], params)}${search}`;
    const headers: Record<string, string> = {
      Authorization: `Bearer ${apiKey}`,
      Accept: 'application/json',
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const startedAt = performance.now();
    try {
      const response = await this.#config.fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      recordUpstream(route, method, startedAt, response.status);
      return {
        status: response.status,
        retryAfter: readableRetryAfter(response.headers.get('Retry-After')),
        body: parseJson(text),
      };
    } catch (error) {
      const timedOut = error instanceof Error && error.name === 'TimeoutError';
      recordUpstream(route, method, startedAt, timedOut ? 'timeout' : 'network');
      this.#config.logger.warn(
        timedOut
          ? `the service did not answer ${method} ${route} within timeoutMs (${timeoutMs} ms)`
          : `the service could not be reached for ${method} ${route}`,
        { reason: describeCause(error) },
      );
      throw sessionError(
        'unavailable',
        timedOut
          ? `The service did not answer within ${timeoutMs} ms.`
          : 'The service could not be reached.',
      );
    }
  }

  /** An upstream SessionError goes to the browser as it came: code (known or not), status, retryable, Retry-After. */
  #passThrough(
    route: keyof ServicePaths,
    detail: SessionErrorDetail,
    answer: UpstreamAnswer,
  ): SessionErrorResponse {
    if (answer.status >= 500) {
      this.#config.logger.warn(
        `the service answered ${detail.code} (${answer.status}) on ${route}`,
      );
    }
    return new SessionErrorResponse({
      code: detail.code,
      message: this.#redact(detail.message),
      retryable: detail.retryable,
      status: answer.status >= 400 ? answer.status : 500,
      retryAfter: answer.retryAfter,
    });
  }

  /** A non-2xx answer that is not a SessionError: only the statuses every endpoint documents keep a meaning. */
  #plainError(route: keyof ServicePaths, answer: UpstreamAnswer): SessionErrorResponse {
    switch (answer.status) {
      case 401:
        this.#config.logger.error(`the service refused the API key (401 on ${route})`);
        return sessionError('invalid_api_key', 'The service refused the API key.');
      case 429:
        return sessionError(
          'rate_limited',
          "The organisation's rate limit at the service was reached.",
          answer.retryAfter,
        );
      case 414:
      case 431:
        // The request line or headers were too long for the service: the same request cannot succeed.
        this.#config.logger.warn(`the service refused ${route} as too long (${answer.status})`);
        return sessionError('invalid_request', 'The service refused the request as too long.');
      case 502:
      case 503:
      case 504:
        this.#config.logger.warn(`the service answered ${answer.status} on ${route}`);
        return sessionError(
          'unavailable',
          `The service is unavailable (${answer.status}).`,
          answer.retryAfter,
        );
      default:
        return this.#badShape(route, answer.status);
    }
  }

  #badShape(route: keyof ServicePaths, status: number): SessionErrorResponse {
    this.#config.logger.error(
      `the service's answer to ${route} (status ${status}) is not in the documented shape; check baseUrl and paths.${route}`,
    );
    return sessionError(
      'internal_error',
      `The service's answer (status ${status}) was not in the documented shape.`,
    );
  }

  #redact(text: string): string {
    return text.split(this.#config.apiKey).join('[redacted]');
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return notJson;
  }
}

/**
 * The upstream `Retry-After` in delta-seconds when it is readable: an HTTP-date is turned into
 * seconds here, so that the browser only ever reads a number of seconds.
 */
function readableRetryAfter(header: string | null): string | undefined {
  const seconds = parseRetryAfter(header);
  return seconds === undefined ? undefined : `${seconds}`;
}

/** Names a fetch failure without its request (which holds the Authorization header). */
function describeCause(error: unknown): string {
  if (!(error instanceof Error)) return 'unknown failure';
  const cause = error.cause;
  const code =
    typeof cause === 'object' && cause !== null && 'code' in cause ? String(cause.code) : undefined;
  return code === undefined ? `${error.name}: ${error.message}` : `${error.name}: ${code}`;
}
