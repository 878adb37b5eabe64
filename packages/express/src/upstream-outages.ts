import type { Logger } from './logger.js';
import type { UpstreamPaths } from './options.js';

type Route = keyof UpstreamPaths;

/**
 * Each endpoint of the service that could not be reached or did not answer within `timeoutMs`,
 * since when and how often: the first answer after says the outage is over, which the failures'
 * own line, logged once a minute (repeated-lines.ts), cannot. Both lines carry `since`, the
 * outage's start: a second outage within a minute of the first is then a line of its own.
 */
export class UpstreamOutages {
  readonly #logger: Logger;
  /** Each endpoint down: when its outage began (Date.now(), as `since` writes it), its failures. */
  readonly #down = new Map<Route, { began: number; failures: number }>();

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  /** Counts a failure of `route`; answers when its outage began (ISO 8601). */
  failed(route: Route): string {
    const outage = this.#down.get(route) ?? { began: Date.now(), failures: 0 };
    outage.failures += 1;
    this.#down.set(route, outage);
    return new Date(outage.began).toISOString();
  }

  /** An answer came from `route`, whatever its status: the service is reached again there. */
  answered(method: string, route: Route): void {
    const outage = this.#down.get(route);
    if (!outage) return;
    this.#down.delete(route);
    this.#logger.warn(`the service answers ${method} ${route} again`, {
      outageSeconds: Math.round((Date.now() - outage.began) / 1000),
      failedRequests: outage.failures,
      since: new Date(outage.began).toISOString(),
    });
  }
}
