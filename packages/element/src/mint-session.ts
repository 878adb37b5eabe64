import { type FormTarget, type MintResponse, mintPath } from '@form-embed/protocol/browser';
import type { FormEmbedElement } from './form-embed-element.js';
import { mintFailure } from './mint-failure.js';
import { mintUrl, trustedSession } from './origins.js';

/**
 * Mints a session for `target` through the element's `fetchSession`, or else the default
 * transport to its `endpoint`, and returns it if it may be framed.
 */
export async function mintThrough(
  element: Pick<
    FormEmbedElement,
    'fetchSession' | 'endpoint' | 'requestInit' | 'allowedEndpointOrigins'
  >,
  target: FormTarget,
  signal: AbortSignal,
): Promise<MintResponse> {
  const { fetchSession } = element;
  return trustedSession(
    await (fetchSession
      ? fetchSession(target, { signal })
      : mintSession(
          mintUrl(element.endpoint, mintPath(target), element.allowedEndpointOrigins),
          element.requestInit,
          signal,
        )),
  );
}

/**
 * The default transport: one `POST` of `{}` to the middleware's mint path, never cached. An answer
 * other than 2xx rejects with a MintFailure; the element checks the body of a 2xx.
 */
export async function mintSession(
  url: string,
  init: RequestInit | undefined,
  signal: AbortSignal,
): Promise<MintResponse> {
  const headers = new Headers(init?.headers);
  headers.set('content-type', 'application/json');
  const response = await fetch(url, {
    ...init,
    method: 'POST',
    headers,
    body: '{}',
    cache: 'no-store',
    // The endpoint's origin was checked (mintUrl); a redirect would carry `requestInit` (a CSRF
    // header, credentials) to another one, and let its answer choose the frame. The middleware
    // never redirects.
    redirect: 'error',
    signal,
  });
  const { status } = response;
  // A body that is no JSON (a proxy's page) is no answer of the middleware's; one cut off on the
  // way rejects as the network does, and is retried as `unavailable` as a failed fetch is.
  const body = await response.json().catch((error: Error) => {
    if (error.name !== 'SyntaxError') throw error;
  });
  if (response.ok) return body;
  // A SessionError body, read as readSessionError reads it, less the message the element drops.
  // A failure without one (a proxy's error page, say) is retried only when 5xx.
  const { code, retryable } =
    (body as { error?: Record<string, unknown> } | undefined)?.error ?? {};
  const given = typeof code === 'string' && code;
  throw mintFailure(
    given || (status > 499 ? 'unavailable' : 'unknown'),
    given ? retryable === true : status > 499,
    status,
    retryAfterSeconds(response.headers.get('Retry-After')),
  );
}

/**
 * `Retry-After` in whole seconds, the form the middleware sends; an HTTP-date, which only another
 * back end might send, counts as absent (the element's own backoff then applies): reading dates,
 * as @form-embed/protocol's parseRetryAfter does, cost the bytes of the attempt time limit.
 */
const retryAfterSeconds = (header: string | null) =>
  header && /^\d+$/.test(header) ? +header : undefined;
