/**
 * The canonical form of an embed origin (partner-api.md, Organisation): `scheme://host[:port]`,
 * lower-case host, no path, no trailing slash, no default port. Returns undefined for anything
 * that is not an absolute http(s) URL.
 */
export function canonicalOrigin(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return undefined;
  return parsed.origin;
}

/** True when `embedUrl` is an absolute URL on exactly `embedOrigin` ("begins with the embed origin"). */
export function isOnEmbedOrigin(embedUrl: string, embedOrigin: string): boolean {
  const origin = canonicalOrigin(embedUrl);
  return origin !== undefined && origin === embedOrigin;
}
