/**
 * Whether a URL's `hostname` names this machine as a browser reads it: localhost, a name under
 * localhost, 127.0.0.0/8 or [::1] (the "potentially trustworthy" hosts plain http may reach).
 * Node resolves a name under localhost through DNS, so a server asking for itself tests
 * `hostname.endsWith('.localhost')` apart.
 */
export function isLoopbackHostname(hostname: string): boolean {
  return /^((.+\.)?localhost|127(\.\d+){3}|\[::1\])$/.test(hostname);
}
