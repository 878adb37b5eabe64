/**
 * The canonical form of an embed origin (docs/contract.md#organisation-and-embed-origins):
 * `scheme://host[:port]`, lower-case host, no path, no trailing slash, no default port. Returns
 * undefined for anything that is not an absolute http(s) URL.
 */
export function canonicalOrigin(url: string): string | undefined {
  try {
    const { protocol, origin } = new URL(url);
    if (/^https?:$/.test(protocol)) return origin;
  } catch {
    // Not an absolute URL.
  }
}

/**
 * `value` in canonical form if it is written as an origin and nothing more: `scheme://host[:port]`
 * with at most a trailing slash, in any case, a default port allowed. Checked as written, since
 * URL parsing would make `https:x.example` or `https://x.example/..` an origin too.
 */
export function originOf(value: string): string | undefined {
  if (!/^https?:\/\/[^/?#@\\\s]+\/?$/i.test(value)) return undefined;
  return canonicalOrigin(value);
}

/**
 * True when `embedUrl` is an absolute URL on exactly `embedOrigin`: its origin, compared as the
 * contract's "begins with the embed origin". A user name or password before the host is not
 * looked at; the middleware refuses such a URL.
 */
// Not looked at here because the element's bundle has no bytes for it.
export function isOnEmbedOrigin(embedUrl: string, embedOrigin: string): boolean {
  return !!embedOrigin && canonicalOrigin(embedUrl) === embedOrigin;
}
