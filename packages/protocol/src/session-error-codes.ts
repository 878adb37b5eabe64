import { isPortalErrorCode } from './portal-codes.js';

/**
 * The SessionError table of the service (docs/contract.md#session-errors), defined once.
 * Each code keeps its HTTP status between releases, so clients branch on the pair.
 * `unknown` has no fixed status: it is the catch-all for refusals with no code of their own.
 */
export const SessionErrorCodes = {
  invalid_request: { status: 400, retryable: false },
  invalid_api_key: { status: 401, retryable: false },
  rate_limited: { status: 429, retryable: true },
  form_not_found: { status: 404, retryable: false },
  form_unpublished: { status: 400, retryable: false },
  form_session_unsupported: { status: 400, retryable: false },
  client_not_found: { status: 404, retryable: false },
  client_not_connected: { status: 404, retryable: false },
  client_not_entitled: { status: 400, retryable: false },
  tenant_not_connected: { status: 403, retryable: false },
  user_not_found: { status: 404, retryable: false },
  invalid_user_identifier: { status: 400, retryable: false },
  microsoft_permission_denied: { status: 403, retryable: false },
  microsoft_unavailable: { status: 503, retryable: true },
  microsoft_connection_failed: { status: 500, retryable: false },
  internal_error: { status: 500, retryable: true },
  forbidden: { status: 403, retryable: false },
  not_found: { status: 404, retryable: false },
  unavailable: { status: 503, retryable: true },
  unknown: { status: null, retryable: false },
} as const satisfies Record<string, { status: number | null; retryable: boolean }>;

/**
 * The status a portal answers `unknown` with, since the table gives it none: a refusal, 400
 * (docs/contract.md#session-errors). The sandbox answers its `unknown` scenario the same way.
 */
export const UNKNOWN_CODE_STATUS = 400;

/** A code of the SessionError table (`SessionErrorCodes`) this release knows. */
export type KnownSessionErrorCode = keyof typeof SessionErrorCodes;

/** A code from the table, or a newer one this release does not know yet. */
export type SessionErrorCode = KnownSessionErrorCode | (string & {});

/** Every code of `SessionErrorCodes`, in the table's order. */
export const knownSessionErrorCodes = Object.keys(SessionErrorCodes) as KnownSessionErrorCode[];

/** True for a code of `SessionErrorCodes`; false for a newer code, a portal code or no string. */
export function isKnownSessionErrorCode(code: unknown): code is KnownSessionErrorCode {
  return typeof code === 'string' && Object.hasOwn(SessionErrorCodes, code);
}

/**
 * The status the contract fixes for `code`; `fallback` for `unknown` (which has none of its own)
 * and for codes not in the table. Callers choose it: an answer of ours for `unknown` is
 * `UNKNOWN_CODE_STATUS`.
 */
export function statusOfSessionErrorCode(code: string, fallback: number): number {
  return (isKnownSessionErrorCode(code) && SessionErrorCodes[code].status) || fallback;
}

/** The code for choosing what a person sees: a code this release does not know reads as `unknown`. */
export function knownSessionErrorCode(code: string): KnownSessionErrorCode {
  return isKnownSessionErrorCode(code) ? code : 'unknown';
}

/**
 * How the contract writes its SessionError codes: snake_case, at most 64 characters. A newer code
 * this release does not know passes only when written so (its enums' values: `ENUM_VALUE_FORM`).
 */
const SESSION_ERROR_CODE_FORM = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * The names the element's messages give its own sentences (the status lines and buttons). The
 * element words a code by the message of that name, so a code named as one of these would be
 * told as "Loading the form…": none is taken for a new code.
 */
export const ELEMENT_SENTENCE_KEYS: readonly string[] = [
  'loading',
  'retrying',
  'offline',
  'storm',
  'retry',
  'lapsed',
  'dismiss',
  'frame',
];

/**
 * True for a code the table does not have, written as its codes are: a refusal the service added
 * after this release (docs/contract.md#session-errors). A portal code is not one (the service
 * never sends those), nor one of the element's sentence names.
 */
export function isNewSessionErrorCode(code: string): boolean {
  return (
    SESSION_ERROR_CODE_FORM.test(code) &&
    !isKnownSessionErrorCode(code) &&
    !isPortalErrorCode(code) &&
    !ELEMENT_SENTENCE_KEYS.includes(code)
  );
}
