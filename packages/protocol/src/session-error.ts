import type { SessionErrorCode } from './session-error-codes.js';

/** The `error` member of a SessionError answer: `{error: {code, message, retryable}}`. */
export interface SessionErrorDetail {
  code: SessionErrorCode;
  /** For an operator, never for an end user. */
  message: string;
  /** True only when the same request can succeed later. */
  retryable: boolean;
}

/** A SessionError answer, `{error: {code, message, retryable}}`, from the service or middleware. */
export interface SessionErrorBody {
  error: SessionErrorDetail;
}

/**
 * Reads a SessionError body leniently: a code this release does not know is kept as it is
 * (the contract says new causes appear as new codes). Returns undefined when the body is not a
 * SessionError: the contract never omits `code`, so an `{error}` without a code (a gateway's
 * `{error: {code: 503}}`, say) is read by its HTTP status instead.
 */
export function readSessionError(body: unknown): SessionErrorDetail | undefined {
  // An `error` that is no object (a string, a number, a JSON array) has no code: no SessionError.
  const { code, message, retryable }: Record<string, unknown> =
    (body as { error?: Record<string, unknown> } | null | undefined)?.error ?? {};
  if (typeof code !== 'string' || !code) return undefined;
  return {
    code,
    message: typeof message === 'string' ? message : '',
    retryable: retryable === true,
  };
}

/** A failed mint as the element and `fetchSession` implementations see it. */
export class FormSessionError extends Error {
  override readonly name = 'FormSessionError';
  declare readonly code: SessionErrorCode;
  /** HTTP status of the answer; 0 when no answer arrived (network failure). */
  declare readonly status: number;
  declare readonly retryable: boolean;
  /** Seconds to wait before a retry, from `Retry-After`, when the answer carried one. */
  declare readonly retryAfter: number | undefined;

  constructor({
    message,
    ...detail
  }: SessionErrorDetail & { status: number; retryAfter?: number | undefined }) {
    super(message || detail.code);
    Object.assign(this, { retryAfter: undefined, ...detail });
  }
}
