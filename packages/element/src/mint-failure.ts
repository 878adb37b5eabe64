import type { FormSessionError, SessionErrorCode } from '@form-embed/protocol/browser';

/**
 * A failed mint: what `form-embed-error` reports but `willRetry`. A FormSessionError is one; the
 * element's own failures are plain objects of the same name, so that the class (for `fetchSession`
 * implementations) stays out of the element's bundle.
 */
export type MintFailure = Pick<FormSessionError, 'name' | 'code' | 'status' | 'retryable'> & {
  retryAfter?: number | undefined;
};

/** A failure the element makes, or reads from an answer: status 0 unless an answer came. */
export function mintFailure(
  code: SessionErrorCode,
  retryable: boolean,
  status = 0,
  retryAfter?: number,
): MintFailure {
  return { name: 'FormSessionError', code, status, retryable, retryAfter };
}
