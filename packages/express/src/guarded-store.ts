import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import type { LimitName } from './limit-key.js';
import { describe, type Logger } from './logger.js';
import { recordUncounted } from './metrics.js';
import { sessionError } from './session-error-response.js';
import { withTimeout } from './with-timeout.js';

/**
 * Thrown to express-rate-limit, whose `passOnStoreError` then lets the request through
 * uncounted. Its logger ignores this one: the outage is logged here, once.
 */
export class StoreBypassed extends Error {
  override readonly name = 'StoreBypassed';
}

class StoreTimedOut extends Error {
  override readonly name = 'StoreTimedOut';
}

/** What every mount and limit sharing one store knows about it, so an outage is logged once. */
interface StoreHealth {
  windowMs: number;
  initOptions: Options | undefined;
  /**
   * Whether the next try initialises the store again: its `init` failed, or an increment did.
   * rate-limit-redis keeps its script's SHA as a promise that `init` sets; a reload after
   * NOSCRIPT that fails leaves it rejected, and only `init` replaces it.
   */
  initFailed: boolean;
  /** When the current outage began; undefined while the store answers. */
  outageSince: number | undefined;
  /**
   * Requests that went on without the store, or were refused without it, during this outage: each
   * once (a signed-out mint meets two limits), by the limit where it met the outage.
   */
  uncounted: number;
  /** During an outage one request at a time tries the store; the others do not wait. */
  probing: boolean;
  /** Whether a window other than ours, set on the store by another rate limiter, was logged. */
  foreignWindowTold: boolean;
}

const healthOf = new WeakMap<Store, StoreHealth>();

export interface GuardOptions {
  windowMs: number;
  timeoutMs: number;
  passOnStoreError: boolean;
  logger: Logger;
  /** The limit this guard counts for, as the metric of uncounted requests names it. */
  limit: LimitName;
  /**
   * Whether this guard's requests may try the store during an outage. A request that meets
   * this limit has already met another on the same store (the signed-out count comes after the
   * address's), whose try this one would only add to: once the store has failed, a request
   * waits for it at most `timeoutMs` in all.
   */
  probes: boolean;
}

/**
 * The portal's store (e.g. Redis) behind a guard. A request waits for it at most `timeoutMs`;
 * an error or a late answer begins an outage, logged once, during which requests go on
 * uncounted (or are refused with `unavailable` when `passOnStoreError` is false) and one request
 * at a time tries the store again; the first answer ends the outage (also logged) and counting
 * resumes. A store whose `init` or last increment failed (Redis down at start, a script reload
 * that failed after a restart) is initialised again by that try.
 */
export class GuardedStore implements Store {
  readonly #store: Store;
  readonly #health: StoreHealth;
  readonly #options: GuardOptions;
  readonly localKeys: boolean;
  readonly prefix: string | undefined;

  constructor(store: Store, options: GuardOptions) {
    const known = healthOf.get(store);
    if (known !== undefined && known.windowMs !== options.windowMs) {
      throw new TypeError(
        `formEmbedSessions: option \`limit.windowMs\` (${options.windowMs}) differs from another mount's (${known.windowMs}) on the same \`limit.store\`: a store keeps one window`,
      );
    }
    this.#health = known ?? {
      windowMs: options.windowMs,
      initOptions: undefined,
      initFailed: false,
      outageSince: undefined,
      uncounted: 0,
      probing: false,
      foreignWindowTold: false,
    };
    healthOf.set(store, this.#health);
    this.#store = store;
    this.#options = options;
    this.localKeys = store.localKeys ?? false;
    this.prefix = store.prefix;
  }

  init(options: Options): void {
    if (this.#health.initOptions !== undefined) return;
    this.#health.initOptions = options;
    // Failing here (Redis still connecting, or down) is no outage yet: the next request
    // initialises the store again, and only a failure then begins one.
    Promise.resolve()
      .then(() => {
        this.#checkWindow();
        return this.#store.init?.(options);
      })
      .catch(() => {
        this.#health.initFailed = true;
      });
  }

  async increment(key: string): Promise<ClientRateLimitInfo> {
    const health = this.#health;
    const probe = health.outageSince !== undefined;
    // Not counted again by a limit that does not probe: its request met the outage at another.
    if (probe && (health.probing || !this.#options.probes)) {
      return this.#uncounted(this.#options.probes);
    }
    if (probe) health.probing = true;
    try {
      const info = await this.#bounded(this.#increment(key));
      this.#recovered();
      return info;
    } catch (error) {
      health.initFailed = true;
      this.#failed(error);
      return this.#uncounted(true);
    } finally {
      if (probe) health.probing = false;
    }
  }

  async decrement(key: string): Promise<void> {
    await this.#bounded(Promise.resolve(this.#store.decrement(key))).catch(this.#failed);
  }

  async resetKey(key: string): Promise<void> {
    await this.#bounded(Promise.resolve(this.#store.resetKey(key))).catch(this.#failed);
  }

  async #increment(key: string): Promise<ClientRateLimitInfo> {
    const health = this.#health;
    if (health.initFailed && health.initOptions !== undefined) {
      await this.#store.init?.(health.initOptions);
      health.initFailed = false;
    }
    const info = await this.#store.increment(key);
    this.#checkWindow();
    return info;
  }

  /**
   * A store keeps one window, set by the last limiter to initialise it (rate-limit-redis's and
   * express-rate-limit's MemoryStore expose it as `windowMs`): the portal's own limiter on the
   * same store object would change ours, or we its, with no error from either. Logged once.
   */
  #checkWindow(): void {
    const health = this.#health;
    const theirs = (this.#store as { windowMs?: unknown }).windowMs;
    if (health.foreignWindowTold || typeof theirs !== 'number' || theirs === health.windowMs)
      return;
    health.foreignWindowTold = true;
    this.#options.logger.error(
      `limit.store counts in windows of ${theirs} ms, not limit.windowMs (${health.windowMs} ms): another rate limiter uses the same store object. Give formEmbedSessions a store of its own (a second RedisStore on the same client is fine)`,
    );
  }

  #bounded<T>(work: Promise<T>): Promise<T> {
    const { timeoutMs } = this.#options;
    return withTimeout(
      work,
      timeoutMs,
      () => new StoreTimedOut(`no answer within limit.storeTimeoutMs (${timeoutMs} ms)`),
    );
  }

  #uncounted(counted: boolean): never {
    if (counted) this.#health.uncounted += 1;
    recordUncounted(this.#options.limit, this.#options.passOnStoreError);
    if (this.#options.passOnStoreError) throw new StoreBypassed();
    throw sessionError('unavailable', 'The limits cannot be checked at the moment.');
  }

  readonly #failed = (error: unknown): void => {
    const health = this.#health;
    if (health.outageSince !== undefined) return;
    health.outageSince = Date.now();
    health.uncounted = 0;
    this.#options.logger.error(
      this.#options.passOnStoreError
        ? "the limit store failed: requests go on without the limits until it answers again (the service's own limit still applies)"
        : 'the limit store failed: requests are refused with unavailable until it answers again (limit.passOnStoreError is false)',
      {
        reason: error instanceof StoreTimedOut ? error.message : describe(error),
        since: new Date(health.outageSince).toISOString(),
      },
    );
  };

  #recovered(): void {
    const health = this.#health;
    if (health.outageSince === undefined) return;
    const since = health.outageSince;
    health.outageSince = undefined;
    // Requests that timed out may still have been counted once the store caught up. `since` names
    // the outage: without it, a second one within a minute would repeat the first's lines, which
    // the log leaves out (repeated-lines.ts).
    this.#options.logger.warn('the limit store answers again: counting resumed', {
      outageSeconds: Math.round((Date.now() - since) / 1000),
      requestsNotWaitedFor: health.uncounted,
      since: new Date(since).toISOString(),
    });
  }
}
