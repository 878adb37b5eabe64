import { canonicalOrigin, type MintResponse } from '@form-embed/protocol/browser';
import { mintFailure } from './mint-failure.js';

/**
 * The element's own code for a refused origin: an `endpoint` on another origin that the page did
 * not allow, an `embedUrl` off its `embedOrigin`, or an `embedOrigin` that is neither https nor
 * loopback. Not retryable, and offered no Try again: the same answer would come again.
 */
export const UNTRUSTED_ORIGIN = 'untrusted_origin';

// https, or plain http on this machine (localhost, *.localhost, 127.x.x.x, [::1]) for development.
// Tested on a canonical origin (trustedSession checks that first), which has no path after its host.
const TRUSTED_EMBED_ORIGIN = /^https:|^http:\/\/(.+\.)?(localhost|127(\.\d+){3}|\[::1])(:|$)/;

/**
 * Where the default transport mints while `endpoint` is unset or empty (as `''`, `undefined` and
 * `null` all are to the key that restarts a mint: form-embed-element.ts' willUpdate). `/` is the
 * origin's root.
 */
export const DEFAULT_ENDPOINT = '/form-sessions';

/**
 * The default transport's mint URL for `path` under `endpoint`. An endpoint on another origin
 * would receive the page's `requestInit` headers and choose what is framed: refused unless
 * `allowed` lists its origin.
 */
export function mintUrl(
  endpoint: string | null | undefined,
  path: string,
  allowed?: readonly string[],
): string {
  const url = (endpoint || DEFAULT_ENDPOINT).replace(/\/$/, '') + path;
  const { origin } = new URL(url, document.baseURI);
  if (origin !== location.origin && !allowed?.includes(origin)) {
    throw mintFailure(UNTRUSTED_ORIGIN, false);
  }
  return url;
}

/**
 * `session` if it may be framed: a MintResponse whose embedUrl is on its embed origin
 * (docs/contract.md#organisation-and-embed-origins, rule 3), an https or loopback origin.
 */
export function trustedSession(session: unknown): MintResponse {
  // 0, not {}: fewer bytes, and it has none of the fields either.
  const { embedUrl, embedOrigin, expiresIn } = (session ?? 0) as Partial<MintResponse>;
  if (
    typeof embedUrl !== 'string' ||
    typeof embedOrigin !== 'string' ||
    typeof expiresIn !== 'number' ||
    !(expiresIn >= 0)
  ) {
    throw mintFailure('internal_error', true);
  }
  // isOnEmbedOrigin less its empty-origin guard: canonicalOrigin never returns ''.
  if (canonicalOrigin(embedUrl) !== embedOrigin || !TRUSTED_EMBED_ORIGIN.test(embedOrigin)) {
    throw mintFailure(UNTRUSTED_ORIGIN, false);
  }
  return session as MintResponse;
}
