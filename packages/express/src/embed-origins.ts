import { type FormTarget, OrganisationSchema } from '@form-embed/protocol';
import type { ServiceClient } from './service-client.js';
import { sessionError } from './session-error-response.js';

/** The organisation's embed origins (partner-api.md, Organisation). */
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
 * the same request, and a failed fetch is forgotten so the next caller tries again. They change
 * only when the organisation changes its forms domain, which `refresh` picks up.
 */
export class EmbedOrigins {
  readonly #client: ServiceClient;
  #current: Promise<EmbedOriginPair> | undefined;

  constructor(client: ServiceClient) {
    this.#client = client;
  }

  get(): Promise<EmbedOriginPair> {
    this.#current ??= this.#fetch();
    return this.#current;
  }

  /**
   * Fetches the origins again because `stale` did not match an embedUrl. Callers holding the
   * same stale pair share one fetch; a caller whose pair was already replaced gets the new one.
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
    const pending = this.#client.read('me', OrganisationSchema).then((organisation) => {
      const { formsOrigin, coreFormsOrigin } = organisation ?? {};
      if (formsOrigin === undefined || coreFormsOrigin === undefined) {
        throw sessionError(
          'internal_error',
          "The service's organisation answer carries no embed origins.",
        );
      }
      return { formsOrigin, coreFormsOrigin };
    });
    pending.catch(() => {
      if (this.#current === pending) this.#current = undefined;
    });
    return pending;
  }
}
