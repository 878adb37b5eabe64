/** Errors in the contract's shapes (docs/contract.md#session-errors). */
import {
  isKnownSessionErrorCode,
  SessionErrorCodes,
  statusOfSessionErrorCode,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol';
import type { Response } from 'express';

/** An error in the contract's shape: a SessionError on the session endpoints, else `{error}`. */
export function sendError(res: Response, session: boolean, code: string, message: string): void {
  if (session) sendSessionError(res, code, message);
  else res.status(statusOfSessionErrorCode(code, 500)).json({ error: message });
}

export function sendSessionError(
  res: Response,
  code: string,
  message: string,
  overrides: { status?: number; retryable?: boolean } = {},
): void {
  const known = isKnownSessionErrorCode(code) ? SessionErrorCodes[code] : undefined;
  res.status(overrides.status ?? statusOfSessionErrorCode(code, UNKNOWN_CODE_STATUS)).json({
    error: { code, message, retryable: overrides.retryable ?? known?.retryable ?? false },
  });
}
