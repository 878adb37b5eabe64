import type { Logger } from './logger.js';

// This machine, by name or address, as a browser reads it ("potentially trustworthy" hosts).
const BROWSER_LOOPBACK = /^((.+\.)?localhost|127(\.\d+){3}|\[::1\])$/;
// As Node reads it: localhost itself, not a name under it, for which Node's resolver asks DNS
// (which may answer another machine's address).
const NODE_LOOPBACK = /^(localhost|127(\.\d+){3}|\[::1\])$/;

/**
 * Whether `url` is https, or plain http to this machine (`loopback`: as a browser or as Node
 * resolves it), where nobody on the way can read it.
 */
function isPotentiallyTrustworthy(url: string, loopback: RegExp): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || (protocol === 'http:' && loopback.test(hostname));
}

/**
 * Warns, once at construction, of the options that go over plain http to another machine. Not
 * refused: a development portal on `http://portal.local`, or a service reached inside a private
 * network, is a choice the portal may make knowingly.
 */
export function warnOfPlainHttp(
  { baseUrl, allowedOrigins }: { baseUrl: string; allowedOrigins: ReadonlySet<string> },
  logger: Logger,
): void {
  if (!isPotentiallyTrustworthy(baseUrl, NODE_LOOPBACK)) {
    logger.warn(
      `baseUrl ${baseUrl} is plain http to another machine: the API key crosses the network where anyone on the way can read it. Use the service's https address.`,
    );
  }
  for (const origin of allowedOrigins) {
    if (!isPotentiallyTrustworthy(origin, BROWSER_LOOPBACK)) {
      logger.warn(
        `allowedOrigins lists ${origin}, plain http: anyone on the network between a browser and that page can change the page, and read the sign-in links minted for its user. List its https origin.`,
      );
    }
  }
}
