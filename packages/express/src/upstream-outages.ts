import type { Logger } from './logger.js';
import type { UpstreamPaths } from './options.js';

type Route = keyof UpstreamPaths;

/**
 * Each endpoint of the service that could not be reached or did not answer within `timeoutMs`,
 * since when and how often: the first answer after says the outage is over, which the failures'
 * own line, logged once a minute (repeated-lines.ts), cannot.
 */
export class UpstreamOutages {
  readonly #logger: Logger;
  readonly #down = new Map<Route, { since: number; failures: number }>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  failed(route: Route): void {
    const outage = this.#down.get(route);
    if (outage) outage.failures += 1;
    else this.#down.set(route, { since: performance.now(), failures: 1 });
  }

  /** An answer came from `route`, whatever its status: the service is reached again there. */
  answered(method: string, route: Route): void {
    const outage = this.#down.get(route);
    if (!outage) return;
    this.#down.delete(route);
    this.#logger.warn(`the service answers ${method} ${route} again`, {
      outageSeconds: Math.round((performance.now() - outage.since) / 1000),
      failedRequests: outage.failures,
    });
  }
}
