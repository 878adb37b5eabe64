/**
 * The canonical form of an embed origin (docs/contract.md#organisation-and-embed-origins): `scheme://host[:port]`,
 * lower-case host, no path, no trailing slash, no default port. Returns undefined for anything
 * that is not an absolute http(s) URL.
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

/** True when `embedUrl` is an absolute URL on exactly `embedOrigin` ("begins with the embed origin"). */
export function isOnEmbedOrigin(embedUrl: string, embedOrigin: string): boolean {
  return !!embedOrigin && canonicalOrigin(embedUrl) === embedOrigin;
}
