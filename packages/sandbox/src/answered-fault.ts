import { statusOfSessionErrorCode, UNKNOWN_CODE_STATUS } from '@form-embed/protocol';
import type { Request, Response } from 'express';
import { sendSessionError } from './api-errors.js';
import type { Fault } from './faults.js';
import { held } from './held-request.js';
import type { SandboxState } from './sandbox-state.js';

/** The wait an injected 429 or 503 tells, unless its spec gives one (or `null`). */
const DEFAULT_FAULT_RETRY_AFTER_S = 1;

/** Applies an injected fault; true when it answered (or dropped) the request. */
export async function answeredFault(
  state: SandboxState,
  req: Request,
  res: Response,
  fault: Fault,
  session: boolean,
): Promise<boolean> {
  switch (fault.kind) {
    case 'foreignEmbedUrl':
      return false;
    case 'delay':
      // Dropped, or closed by reset(), while held: nothing more for it.
      return !(await held(state, req, res, fault.delayMs));
    case 'reset':
      req.socket.destroy();
      return true;
    case 'notJson':
      res
        .status(fault.status ?? 200)
        .type('html')
        .send('<html><body><h1>Bad gateway</h1><p>This is not JSON.</p></body></html>');
      return true;
    case 'error': {
      const message = fault.message ?? `Injected fault: ${fault.code}.`;
      const status = fault.status ?? statusOfSessionErrorCode(fault.code, UNKNOWN_CODE_STATUS);
      // As the service answers them, a 429 or 503 says how long to wait unless told otherwise.
      const retryAfter =
        fault.retryAfter === undefined && (status === 429 || status === 503)
          ? DEFAULT_FAULT_RETRY_AFTER_S
          : fault.retryAfter;
      if (retryAfter !== undefined && retryAfter !== null) {
        res.set('Retry-After', String(retryAfter));
      }
      if (session) {
        sendSessionError(res, fault.code, message, {
          status,
          ...(fault.retryable !== undefined ? { retryable: fault.retryable } : {}),
        });
      } else {
        res.status(status).json({ error: message });
      }
      return true;
    }
  }
}
