import type { NextFunction, Request, Response } from 'express';
import { countBrowserGone } from './answer-metrics.js';
import { BrowserGone } from './browser-gone.js';
import { describe, type Logger } from './logger.js';
import { SessionErrorResponse, sendSessionError, sessionError } from './session-error-response.js';

/** Any method or path under the mount that is not a route: `not_found`. */
export function noSuchRoute(): never {
  throw sessionError('not_found', 'No such form-session route.');
}

/** Every failure leaves as a SessionError: the middleware's own, the service's, or a malformed request. */
export function answerError(logger: Logger) {
  return function answerError(
    error: unknown,
    _req: Request,
    res: Response,
    next: NextFunction,
  ): void {
    if (error instanceof BrowserGone) {
      countBrowserGone(res);
    } else if (res.headersSent) {
      next(error);
    } else if (error instanceof SessionErrorResponse) {
      sendSessionError(res, error.answer);
    } else if (isClientError(error)) {
      sendSessionError(res, sessionError('invalid_request', 'The request is malformed.').answer);
    } else {
      logger.error('unexpected failure while answering a form-session request', {
        error: describe(error),
      });
      sendSessionError(
        res,
        sessionError('internal_error', 'Unexpected error in the middleware.').answer,
      );
    }
  };
}

/** A 4xx error raised by Express: a malformed path. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
