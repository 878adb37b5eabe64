import { isLoopbackHostname } from '@form-embed/protocol';

/**
 * Whether Node reaches `hostname` on this machine: a loopback name, but not one under localhost,
 * which Node asks DNS for (and may be answered with another machine's address). A browser reads
 * every name under localhost as this machine (`isLoopbackHostname`).
 */
export function isThisMachineForNode(hostname: string): boolean {
  return isLoopbackHostname(hostname) && !hostname.endsWith('.localhost');
}

/**
 * Whether `url` is https, or plain http to this machine, where nobody on the way can read it: as a
 * browser reads the name (`forNode` false), or as Node resolves it.
 */
export function isPotentiallyTrustworthy(url: string, forNode: boolean): boolean {
  const { protocol, hostname } = new URL(url);
  if (protocol === 'https:') return true;
  const here = forNode ? isThisMachineForNode(hostname) : isLoopbackHostname(hostname);
  return protocol === 'http:' && here;
}
