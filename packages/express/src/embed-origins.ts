import { type EmbedOrigins, type FormTarget, OrganisationSchema } from '@form-embed/protocol';
import { describe, type Logger } from './logger.js';
import type { ServiceClient } from './service-client.js';
import { SessionErrorResponse, sessionError } from './session-error-response.js';
import { isPotentiallyTrustworthy, isThisMachineForNode } from './this-machine.js';

/** The embed origin a framed page of `target`'s kind posts from. */
export function embedOriginFor(origins: EmbedOrigins, target: FormTarget): string {
  return target.kind === 'form' ? origins.formsOrigin : origins.coreFormsOrigin;
}

/**
 * While there are no origins, how long after a page had them read it does not have them read
 * again; also how long mints are refused after a read found an origin the element would refuse.
 */
const PAGE_READ_PAUSE_MS = 10_000;

/**
 * How old the origins may be before a page has them read again: an instance that mints no form
 * of the kind whose domain changed still gives its pages the new origin within this, plus one
 * page (docs/contract.md#organisation-and-embed-origins).
 */
const PAGE_ORIGINS_MAX_AGE_MS = 60_000;

/**
 * The embed origins from `GET /api/v1/me`, fetched once and shared: concurrent callers wait on
 * the same request. They change only when the organisation changes its forms domain, which a
 * mint's `refresh` picks up, and pages' `forPages` within PAGE_ORIGINS_MAX_AGE_MS. A failed
 * first fetch is forgotten, so the next caller tries again; a failed refresh keeps the last good
 * origins.
 */
export class EmbedOriginCache {
  readonly #client: ServiceClient;
  readonly #logger: Logger;
  /** Whether `baseUrl` is on this machine, the one place a plain-http embed origin is framed. */
  readonly #serviceOnThisMachine: boolean;
  #current: Promise<EmbedOrigins> | undefined;
  #lastGood: EmbedOrigins | undefined;
  /** The read `prefetch` started, settled either way. */
  #first: Promise<unknown> = Promise.resolve();
  /** When a page may next have the origins read. */
  #pageReadAfter = 0;
  /** Whether a read of the origins is out. */
  #reading = false;
  /** Until when mints are refused: the origins last read held one the element would refuse. */
  #unframeableUntil = 0;
  /** The refusal of that read, which a refresh passes on instead of keeping the last good. */
  #unframeable: unknown;

  constructor(client: ServiceClient, logger: Logger, baseUrl: string) {
    this.#client = client;
    this.#logger = logger;
    this.#serviceOnThisMachine = isThisMachineForNode(new URL(baseUrl).hostname);
  }

  /**
   * Starts the first fetch now, when the middleware is created, so that it is usually done
   * before the first mint, and nothing else spends the organisation's reads first. A page's
   * `forPages` waits for it to settle, and a mint meanwhile shares it; a failed one is forgotten
   * (the next caller, mint or page, reads again). A SessionError was logged where the answer was
   * read, with what to do (a refused key, the service down): only anything else is logged here.
   */
  prefetch(): void {
    this.#first = this.get().catch((error: unknown) => {
      if (error instanceof SessionErrorResponse) return;
      this.#logger.warn(
        "the embed origins (GET /api/v1/me) could not be fetched at start; the next mint, or a page's read of them, tries again",
        { error: describe(error) },
      );
    });
  }

  /**
   * For a page's Content-Security-Policy: the origins last fetched, after the first read has
   * settled. Past that a page never waits: it gets the last good origins (undefined while no read
   * has succeeded, the service down at start) at once, and has them read again in the background
   * when none is out: while there are none, at most every PAGE_READ_PAUSE_MS, so that they come
   * back with the service without a mint; else once they are PAGE_ORIGINS_MAX_AGE_MS old (and as
   * long after a failed read), since another instance's mints may have met a new forms domain.
   */
  async forPages(): Promise<EmbedOrigins | undefined> {
    await this.#first;
    if (!this.#reading && Date.now() >= this.#pageReadAfter) {
      const known = this.#lastGood !== undefined;
      this.#pageReadAfter = Date.now() + (known ? PAGE_ORIGINS_MAX_AGE_MS : PAGE_READ_PAUSE_MS);
      // Not logged here: a failed read logs what it met, and the logger drops repeats.
      (known ? this.#readAgain() : this.get()).catch(() => {});
    }
    return this.#lastGood;
  }

  get(): Promise<EmbedOrigins> {
    this.#current ??= this.#fetch();
    return this.#current;
  }

  /**
   * Fetches the origins again because `stale` did not match an embedUrl. Callers holding the
   * same stale pair share one fetch; a caller whose pair was already replaced gets the new one.
   * When the fetch fails, the last good pair stays and is the answer, unless it read origins
   * the element would refuse: then the refusal is.
   */
  async refresh(stale: EmbedOrigins): Promise<EmbedOrigins> {
    const current = this.#current;
    if (current !== undefined) {
      const latest = await current.catch(() => undefined);
      if (latest !== undefined && latest !== stale) return latest;
      if (this.#current !== current) return this.get();
    }
    return this.#readAgain();
  }

  /** A new read of the origins, which callers from now on share. */
  #readAgain(): Promise<EmbedOrigins> {
    this.#current = this.#fetch();
    return this.#current;
  }

  /**
   * The organisation changed its forms domain: mints follow at once, but a page whose
   * Content-Security-Policy names the old origin in `frame-src` (fixed when the portal started)
   * no longer frames the forms. Logged once per change, by each instance.
   */
  #tellChange(before: EmbedOrigins, after: EmbedOrigins): void {
    const changed = (['formsOrigin', 'coreFormsOrigin'] as const).filter(
      (name) => before[name] !== after[name],
    );
    if (changed.length === 0) return;
    this.#logger.warn(
      `the organisation's embed origins changed (${changed.map((name) => `${name} ${before[name]} -> ${after[name]}`).join(', ')}): mints use the new ones; a Content-Security-Policy frame-src that names the old ones must take them from the Router's embedOrigins()`,
    );
  }

  /**
   * The origins a mint's embedUrl is checked against: the last read, else the first awaited. While
   * the origins last read hold one the element would refuse, the mint is refused before it is
   * sent, for PAGE_READ_PAUSE_MS after that read: a mint and a read are spent on it at most that
   * often, not for every page. Not retryable: only the service's owner can change it.
   */
  forMint(): Promise<EmbedOrigins> {
    if (Date.now() < this.#unframeableUntil) return Promise.reject(unframeableError());
    return this.#lastGood ? Promise.resolve(this.#lastGood) : this.get();
  }

  /** An embed origin the element would refuse: logged, and mints refused for a while. */
  #refuseUnframeable(origin: string) {
    this.#unframeableUntil = Date.now() + PAGE_READ_PAUSE_MS;
    const framed = this.#serviceOnThisMachine
      ? 'neither https nor on this machine: the element frames no other'
      : 'not https, and the service is on another machine: an origin on this one is not its';
    this.#logger.error(
      `the service's embed origin ${origin} (GET /api/v1/me) is ${framed}, so mints are refused, and the origins read again after ${PAGE_READ_PAUSE_MS / 1000} s`,
    );
    this.#unframeable = unframeableError();
    return this.#unframeable;
  }

  #fetch(): Promise<EmbedOrigins> {
    const lastGood = this.#lastGood;
    this.#reading = true;
    const read = this.#client.read('me', OrganisationSchema).finally(() => {
      this.#reading = false;
    });
    const pending = read.then((organisation) => {
      const { formsOrigin, coreFormsOrigin } = organisation;
      if (formsOrigin === undefined || coreFormsOrigin === undefined) {
        throw sessionError(
          'internal_error',
          "The service's organisation answer carries no embed origins.",
        );
      }
      for (const origin of [formsOrigin, coreFormsOrigin]) {
        // What the element frames (docs/contract.md#organisation-and-embed-origins): https, as
        // the contract writes embed origins, or plain http on this machine (the sandbox), taken
        // only from a service on this machine too: from a remote one it is the visitor's own.
        const plainHttpHere = !origin.startsWith('https:') && !this.#serviceOnThisMachine;
        if (!isPotentiallyTrustworthy(origin, false) || plainHttpHere) {
          throw this.#refuseUnframeable(origin);
        }
      }
      this.#pageReadAfter = Date.now() + PAGE_ORIGINS_MAX_AGE_MS;
      const known = this.#lastGood;
      // The same pair is kept as it was: a mint's refresh tells a new read from its own by it.
      if (known?.formsOrigin === formsOrigin && known.coreFormsOrigin === coreFormsOrigin) {
        return known;
      }
      if (known !== undefined) this.#tellChange(known, { formsOrigin, coreFormsOrigin });
      this.#lastGood = { formsOrigin, coreFormsOrigin };
      return this.#lastGood;
    });
    if (lastGood === undefined) {
      pending.catch(() => {
        if (this.#current === pending) this.#current = undefined;
      });
      return pending;
    }
    const keptOnFailure = pending.catch((error: unknown) => {
      if (error === this.#unframeable) throw error;
      return lastGood;
    });
    return keptOnFailure;
  }
}

const unframeableError = () =>
  sessionError('invalid_request', "The service's embed origin is not https.");
