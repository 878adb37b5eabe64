import {
  type KnownSessionErrorCode,
  type PortalErrorCode,
  PortalErrorCodes,
  SessionErrorCodes,
  type SessionErrorDetail,
} from '@form-embed/protocol';
import type { Response } from 'express';
import { countAnswer, countBrowserGone } from './answer-metrics.js';
import { isBrowserGone } from './browser-gone.js';
import { sessionErrorMessages } from './session-error-messages.js';

/** A SessionError as the middleware answers it: the body's detail, the status, and `Retry-After` when due. */
export interface SessionErrorAnswer extends SessionErrorDetail {
  status: number;
  /** The `Retry-After` header value, in delta-seconds. */
  retryAfter?: string | undefined;
}

/**
 * A `Retry-After` value in delta-seconds, no longer than `maxRetryAfterSeconds`: the service's own
 * waits and the middleware's limit windows alike (docs/contract.md#retry-after).
 */
export function cappedRetryAfter(seconds: number, maxRetryAfterSeconds: number): string {
  return String(Math.min(seconds, maxRetryAfterSeconds));
}

/** Thrown inside the middleware to end a request with a SessionError answer. */
export class SessionErrorResponse extends Error {
  override readonly name = 'SessionErrorResponse';
  readonly answer: SessionErrorAnswer;
  /** The service's own SessionError, passed on; false for every answer of the middleware's. */
  readonly fromService: boolean;

  constructor(answer: SessionErrorAnswer, fromService = false) {
    super(`${answer.code}: ${answer.message}`);
    this.answer = answer;
    this.fromService = fromService;
  }
}

/** A SessionError of the middleware's own, with the status and retryable flag the contract fixes for `code`. */
export function sessionError(
  code: Exclude<KnownSessionErrorCode, 'unknown'>,
  message: string,
  retryAfter?: string,
): SessionErrorResponse {
  const { status, retryable } = SessionErrorCodes[code];
  return new SessionErrorResponse({ code, message, retryable, status, retryAfter });
}

/** A refusal of the portal's own (docs/contract.md#portal-codes), with its fixed sentence. */
export function portalError(code: PortalErrorCode): SessionErrorResponse {
  const { status, retryable } = PortalErrorCodes[code];
  return new SessionErrorResponse({ code, message: sessionErrorMessages[code], retryable, status });
}

/**
 * Sends `{error: {code, message, retryable}}` with the status, `Retry-After` when due, never
 * cached; unless the browser has gone: then nothing is written, and it is counted so (a refusal
 * of a limit too, whose own count, `form_embed.limit.refusals`, is kept).
 */
export function sendSessionError(res: Response, answer: SessionErrorAnswer): void {
  if (isBrowserGone(res)) {
    countBrowserGone(res);
    return;
  }
  res.status(answer.status);
  countAnswer(res, answer.code);
  res.set('Cache-Control', 'no-store');
  if (answer.retryAfter !== undefined) res.set('Retry-After', answer.retryAfter);
  res.json({ error: { code: answer.code, message: answer.message, retryable: answer.retryable } });
}
