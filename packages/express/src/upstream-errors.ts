import {
  isKnownSessionErrorCode,
  isNewSessionErrorCode,
  readSessionError,
  SessionErrorCodes,
  type SessionErrorDetail,
  statusOfSessionErrorCode,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol';
import { badShape } from './bad-shape.js';
import type { Logger } from './logger.js';
import { WHAT_TO_DO, WHEN_READS_LIMITED } from './operator-advice.js';
import { isFormSessionRoute, type UpstreamPaths } from './options.js';
import { secretRedactor } from './secret-redaction.js';
import { sessionErrorMessages } from './session-error-messages.js';
import { cappedRetryAfter, SessionErrorResponse, sessionError } from './session-error-response.js';
import type { UpstreamAnswer, UpstreamConfig } from './upstream-request.js';
import { loggedText } from './upstream-text.js';

type Route = keyof UpstreamPaths;

/**
 * What a 429 of ours waits when the service gave no readable `Retry-After`: the minute its mint
 * limit takes to refill its whole burst (docs/contract.md#limits), a cautious wait.
 */
const RATE_LIMIT_REFILL_SECONDS = 60;

/** The codes that fail the organisation's mints until someone acts: logged as errors. */
const ORGANISATION_FAILURES = new Set(['invalid_api_key', 'microsoft_connection_failed']);

/**
 * Turns the service's failed answers into the SessionErrors the browser gets. A code of the
 * contract's table keeps the table's status and retryable (docs/contract.md#session-errors); a
 * refusal the service added after this release keeps its own, so that a new transient failure is
 * still retried. The message is a fixed sentence of ours; what the service said goes to the log.
 */
export class UpstreamErrors {
  readonly #logger: Logger;
  readonly #redact: (text: string) => string;
  readonly #logged: (text: string) => string;
  /** What a 429 without a readable `Retry-After` waits (docs/contract.md#limits). */
  readonly #rateLimitWait: string;

  constructor({
    logger,
    apiKey,
    maxRetryAfterSeconds,
  }: Pick<UpstreamConfig, 'logger' | 'apiKey' | 'maxRetryAfterSeconds'>) {
    this.#logger = logger;
    this.#redact = secretRedactor(apiKey);
    this.#logged = loggedText(this.#redact);
    this.#rateLimitWait = cappedRetryAfter(RATE_LIMIT_REFILL_SECONDS, maxRetryAfterSeconds);
  }

  /**
   * A non-2xx answer: a SessionError, a plain `{error}` with a status that keeps a meaning, or a
   * bad shape.
   */
  refusal(route: Route, answer: UpstreamAnswer): SessionErrorResponse {
    const body = typeof answer.body === 'symbol' ? undefined : answer.body;
    const detail = readSessionError(body);
    return detail === undefined
      ? this.#plain(route, answer)
      : this.#fromSessionError(route, detail, answer);
  }

  /** Whether `text` holds the API key, in any form the redaction knows (secret-redaction.ts). */
  holdsKey(text: string): boolean {
    return this.#redact(text) !== text;
  }

  /**
   * A mint whose embedUrl or provider holds the API key (a service echoing its Authorization
   * header, in a debug parameter say): what the browser would be given, so it is given nothing.
   */
  echoedKey(route: Route, answer: UpstreamAnswer): SessionErrorResponse {
    this.#logger.error(
      `the service's answer to ${answer.endpoint} (paths.${route}) holds the API key in its embedUrl or provider; it was not passed on to the browser. Tell the service's support`,
      { request: answer.request },
    );
    return sessionError('internal_error', "The service's answer held the API key.");
  }

  #fromSessionError(
    route: Route,
    detail: SessionErrorDetail,
    answer: UpstreamAnswer,
  ): SessionErrorResponse {
    const { code } = detail;
    // A refused key, or the organisation's Microsoft connection broken, fails every mint (every
    // Microsoft and Core one) until someone replaces or reconnects it: an error, saying what to do,
    // and not which endpoint met it, so that it is one line a minute, not one per endpoint.
    const organisation = ORGANISATION_FAILURES.has(code);
    this.#logger[organisation ? 'error' : 'warn'](
      `the service answered ${this.#logged(code)} (status ${answer.status})${organisation ? '' : ` on ${route}`}${WHAT_TO_DO.get(code) ?? ''}`,
      {
        code: this.#logged(code),
        message: this.#logged(detail.message),
      },
    );
    if (isKnownSessionErrorCode(code)) {
      const { retryable } = SessionErrorCodes[code];
      const status = statusOfSessionErrorCode(code, UNKNOWN_CODE_STATUS);
      return new SessionErrorResponse(
        {
          code,
          message: sessionErrorMessages[code],
          retryable,
          status,
          retryAfter: retryable ? this.#waitOf(status, answer) : undefined,
        },
        true,
      );
    }
    // A new code is passed on with the service's status (an error status, 400 to 599) and
    // retryable: the element words it as `unknown` (or as the page words that code) and retries
    // it if the service says it may. Never one that holds the key (a service echoing it).
    const isNew =
      isNewSessionErrorCode(code) &&
      !this.holdsKey(code) &&
      answer.status >= 400 &&
      answer.status <= 599;
    const retryable = isNew && detail.retryable;
    const status = isNew ? answer.status : UNKNOWN_CODE_STATUS;
    return new SessionErrorResponse(
      {
        code: isNew ? code : 'unknown',
        message: sessionErrorMessages.unknown,
        retryable,
        status,
        // A 429 carries it even when not retryable: a caller of its own may still wait on it.
        retryAfter: retryable || status === 429 ? this.#waitOf(status, answer) : undefined,
      },
      true,
    );
  }

  /**
   * The `Retry-After` of an answer of ours with `status`: the service's, and for a 429 without
   * one RATE_LIMIT_REFILL_SECONDS, not `limit.windowMs` (docs/contract.md#limits: a 429 always
   * carries it), so that no caller retries at once into a limit the whole organisation shares.
   */
  #waitOf(status: number, answer: UpstreamAnswer): string | undefined {
    return answer.retryAfter ?? (status === 429 ? this.#rateLimitWait : undefined);
  }

  /** Only the statuses every endpoint documents keep a meaning; anything else is a bad shape. */
  #plain(route: Route, answer: UpstreamAnswer): SessionErrorResponse {
    switch (answer.status) {
      case 401:
        this.#logger.error(
          `the service refused the API key (401)${WHAT_TO_DO.get('invalid_api_key')}`,
        );
        return sessionError('invalid_api_key', sessionErrorMessages.invalid_api_key);
      case 429:
        this.#logger.warn(
          `the service answered 429 on ${route}${isFormSessionRoute(route) ? WHAT_TO_DO.get('rate_limited') : WHEN_READS_LIMITED}`,
        );
        return sessionError(
          'rate_limited',
          sessionErrorMessages.rate_limited,
          this.#waitOf(429, answer),
        );
      case 414:
      case 431:
        // The request line or headers were too long for the service: the same request cannot
        // succeed.
        this.#logger.warn(`the service refused ${route} as too long (${answer.status})`);
        return sessionError('invalid_request', 'The service refused the request as too long.');
      case 400:
      case 403:
      case 404:
      case 405:
      case 410:
        // On a form-session endpoint, which answers every refusal as a SessionError: not the
        // service's answer to this mint but a refusal of the request as such (a path the service
        // does not have, a gateway's rule), which the same mint meets again. A read's is the
        // general form `{error: string}`: its message names the problem, and a 403 is a
        // scope the key lacks or another client’s record (docs/contract.md#authentication).
        if (!isFormSessionRoute(route)) return this.#refusedRead(route, answer);
        this.#logger.error(
          `the service answered ${answer.endpoint} (paths.${route}) with ${answer.status} and no SessionError: check baseUrl (without /api/v1) and paths.${route}, and any gateway in front of the service`,
          this.#requestAndSaid(answer),
        );
        return sessionError(
          'invalid_request',
          `The service refused the request (${answer.status}) without saying why.`,
        );
      case 502:
      case 503:
      case 504:
        return this.#unavailable(route, answer);
      default:
        return badShape(this.#logger, route, answer);
    }
  }

  /** A 502, 503 or 504 with no SessionError: a gateway's, or the service's own, failing. */
  #unavailable(route: Route, answer: UpstreamAnswer): SessionErrorResponse {
    this.#logger.warn(`the service answered ${answer.status} on ${route}`, {
      request: answer.endpoint,
    });
    return sessionError(
      'unavailable',
      `The service is unavailable (${answer.status}).`,
      answer.retryAfter,
    );
  }

  /** A read refused in the general form `{error: string}`, logged with what the service said. */
  #refusedRead(route: Route, answer: UpstreamAnswer): SessionErrorResponse {
    const details = this.#requestAndSaid(answer);
    if (details.said === undefined) return badShape(this.#logger, route, answer);
    const todo =
      answer.status === 403
        ? 'the API key may lack a scope this read needs, or the record is another client’s'
        : `check baseUrl (without /api/v1) and paths.${route}`;
    this.#logger.error(
      `the service refused ${answer.endpoint} (paths.${route}) with ${answer.status}: ${todo}`,
      details,
    );
    return sessionError('internal_error', `The service refused a read (${answer.status}).`);
  }

  /**
   * The request, and `{error: string}`'s text cleaned as `said` when the body is that: details,
   * not the line's message, which names the endpoint as configured (bad-shape.ts).
   */
  #requestAndSaid(answer: UpstreamAnswer): { request: string; said?: string } {
    const error = (answer.body as { error?: unknown } | undefined)?.error;
    return typeof error === 'string' && error
      ? { request: answer.request, said: this.#logged(error) }
      : { request: answer.request };
  }
}
