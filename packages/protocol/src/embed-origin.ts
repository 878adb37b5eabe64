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

/** True when `embedUrl` is an absolute URL on exactly `embedOrigin` ("begins with the embed origin"). */
export function isOnEmbedOrigin(embedUrl: string, embedOrigin: string): boolean {
  return !!embedOrigin && canonicalOrigin(embedUrl) === embedOrigin;
}
