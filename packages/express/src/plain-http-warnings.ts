import type { Logger } from './logger.js';

// A browser's "potentially trustworthy" hosts: this machine, by name or address.
const LOOPBACK_HOST = /^((.+\.)?localhost|127(\.\d+){3}|\[::1\])$/;

/** Whether `url` is https, or plain http to this machine, where nobody on the way can read it. */
export function isPotentiallyTrustworthy(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === 'https:' || (protocol === 'http:' && LOOPBACK_HOST.test(hostname));
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
  if (!isPotentiallyTrustworthy(baseUrl)) {
    logger.warn(
      `baseUrl ${baseUrl} is plain http to another machine: the API key crosses the network where anyone on the way can read it. Use the service's https address.`,
    );
  }
  for (const origin of allowedOrigins) {
    if (!isPotentiallyTrustworthy(origin)) {
      logger.warn(
        `allowedOrigins lists ${origin}, plain http: anyone on the network between a browser and that page can change the page, and read the sign-in links minted for its user. List its https origin.`,
      );
    }
  }
}
