import { type FormTarget, OrganisationSchema } from '@form-embed/protocol';
import { describe, type Logger } from './logger.js';
import type { ServiceClient } from './service-client.js';
import { sessionError } from './session-error-response.js';

/** The organisation's embed origins (docs/contract.md#organisation-and-embed-origins). */
export interface EmbedOriginPair {
  formsOrigin: string;
  coreFormsOrigin: string;
}

/** The embed origin a framed page of `target`'s kind posts from. */
export function embedOriginFor(origins: EmbedOriginPair, target: FormTarget): string {
  return target.kind === 'form' ? origins.formsOrigin : origins.coreFormsOrigin;
}

/**
 * The embed origins from `GET /api/v1/me`, fetched once and shared: concurrent callers wait on
 * the same request. They change only when the organisation changes its forms domain, which
 * `refresh` picks up. A failed first fetch is forgotten, so the next caller tries again; a
 * failed refresh keeps the last good origins.
 */
export class EmbedOrigins {
  readonly #client: ServiceClient;
  #current: Promise<EmbedOriginPair> | undefined;
  #lastGood: EmbedOriginPair | undefined;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  /**
   * Starts the first fetch now, when the middleware is created, so that no mint waits for it
   * and nothing else spends the organisation's reads first. Nobody awaits it: a failure is
   * logged, and the first mint fetches again.
   */
  prefetch(logger: Logger): void {
    this.get().catch((error: unknown) =>
      logger.warn(
        'the embed origins (GET /api/v1/me) could not be fetched at start; the first mint tries again',
        {
          error: describe(error),
        },
      ),
    );
  }

  /** The origins last fetched, once there are any. */
  get lastGood(): EmbedOriginPair | undefined {
    return this.#lastGood;
  }

  get(): Promise<EmbedOriginPair> {
    this.#current ??= this.#fetch();
    return this.#current;
  }

  /**
   * Fetches the origins again because `stale` did not match an embedUrl. Callers holding the
   * same stale pair share one fetch; a caller whose pair was already replaced gets the new one.
   * When the fetch fails, the last good pair stays and is the answer.
   */
  async refresh(stale: EmbedOriginPair): Promise<EmbedOriginPair> {
    const current = this.#current;
    if (current !== undefined) {
      const latest = await current.catch(() => undefined);
      if (latest !== undefined && latest !== stale) return latest;
      if (this.#current !== current) return this.get();
    }
    this.#current = this.#fetch();
    return this.#current;
  }

  #fetch(): Promise<EmbedOriginPair> {
    const lastGood = this.#lastGood;
    const pending = this.#client.read('me', OrganisationSchema).then((organisation) => {
      const { formsOrigin, coreFormsOrigin } = organisation ?? {};
      if (formsOrigin === undefined || coreFormsOrigin === undefined) {
        throw sessionError(
          'internal_error',
          "The service's organisation answer carries no embed origins.",
        );
      }
      this.#lastGood = { formsOrigin, coreFormsOrigin };
      return this.#lastGood;
    });
    if (lastGood === undefined) {
      pending.catch(() => {
        if (this.#current === pending) this.#current = undefined;
      });
      return pending;
    }
    const keptOnFailure = pending.catch(() => lastGood);
    return keptOnFailure;
  }
}
