import type { Logger } from './logger.js';
import { isPotentiallyTrustworthy } from './this-machine.js';

/**
 * Warns, once at construction, of the options that go over plain http to another machine. Not
 * refused: a development portal on `http://portal.local`, or a service reached inside a private
 * network, is a choice the portal may make knowingly.
 */
export function warnOfPlainHttp(
  { baseUrl, allowedOrigins }: { baseUrl: string; allowedOrigins: ReadonlySet<string> },
  logger: Logger,
): void {
  if (!isPotentiallyTrustworthy(baseUrl, true)) {
    logger.warn(
      `baseUrl ${baseUrl} is plain http to another machine: the API key crosses the network where anyone on the way can read it. Use the service's https address.`,
    );
  }
  for (const origin of allowedOrigins) {
    if (!isPotentiallyTrustworthy(origin, false)) {
      logger.warn(
        `allowedOrigins lists ${origin}, plain http: anyone on the network between a browser and that page can change the page, and read the sign-in links minted for its user. List its https origin.`,
      );
    }
  }
}
