import {
  FormSessionError,
  type MintResponse,
  parseRetryAfter,
  readSessionError,
  type SessionErrorCode,
} from '@form-embed/protocol/browser';

/** A FormSessionError the element raises itself: status 0, as no SessionError answer says more. */
export function sessionError(code: SessionErrorCode, retryable: boolean) {
  return new FormSessionError({ code, message: '', retryable, status: 0 });
}

/**
 * The default transport: one `POST` of `{}` to the middleware's mint path, never cached. A failure
 * throws a FormSessionError (a network failure: `unavailable`, status 0); the element checks the
 * 200 body.
 */
export async function mintSession(
  url: string,
  init: RequestInit | undefined,
  signal: AbortSignal,
): Promise<MintResponse> {
  const headers = new Headers(init?.headers);
  headers.set('Content-Type', 'application/json');
  const response = await fetch(url, {
    credentials: 'same-origin',
    ...init,
    method: 'POST',
    headers,
    body: '{}',
    cache: 'no-store',
    signal,
  }).catch(() => {
    throw sessionError('unavailable', true);
  });
  const { status } = response;
  const body = await response.json().catch(() => {});
  if (response.ok) return body;
  // A failure without a SessionError body (a proxy's error page, say) is retried only when 5xx.
  throw new FormSessionError({
    ...(readSessionError(body) ?? {
      code: status > 499 ? 'unavailable' : 'unknown',
      message: '',
      retryable: status > 499,
    }),
    status,
    retryAfter: parseRetryAfter(response.headers.get('Retry-After')),
  });
}
