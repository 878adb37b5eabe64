import type { ClientRateLimitInfo, Options, Store } from 'express-rate-limit';
import { LRUCache } from 'lru-cache';
import { countBound } from './count-bound.js';

/**
 * Keys a default limit keeps at most: up to about 470 bytes each (a user part of 128
 * characters, past which it is hashed), so about 25 MB at the cap.
 */
const MAX_LIMIT_KEYS = 50_000;

interface Count {
  totalHits: number;
  resetTime: Date;
}

/**
 * The limits' default store: a fixed window per key, as express-rate-limit's
 * MemoryStore counts, in an LRU of at most `maxKeys` keys. MemoryStore keeps every key for up
 * to two windows with no cap, so a flood of distinct client addresses (IPv6 networks, or
 * forged `X-Forwarded-For` with `trust proxy` true) grows the heap without bound. Here the
 * least recently counted keys go first: under such a flood the limits count less, never more,
 * and memory stays bounded. A window ends on `Date.now()`, read at each count.
 */
export class BoundedMemoryStore implements Store {
  readonly localKeys = true;
  #windowMs = 60_000;
  readonly #counts: LRUCache<string, Count>;

  constructor(maxKeys = MAX_LIMIT_KEYS) {
    this.#counts = new LRUCache<string, Count>(countBound(maxKeys));
  }

  init(options: Options): void {
    this.#windowMs = options.windowMs;
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const count = this.#live(key);
    return count && { totalHits: count.totalHits, resetTime: count.resetTime };
  }

  increment(key: string): ClientRateLimitInfo {
    const count = this.#live(key) ?? {
      totalHits: 0,
      resetTime: new Date(Date.now() + this.#windowMs),
    };
    count.totalHits += 1;
    this.#counts.set(key, count);
    return { totalHits: count.totalHits, resetTime: count.resetTime };
  }

  decrement(key: string): void {
    const count = this.#live(key);
    if (count && count.totalHits > 0) count.totalHits -= 1;
  }

  resetKey(key: string): void {
    this.#counts.delete(key);
  }

  resetAll(): void {
    this.#counts.clear();
  }

  /** How many keys it holds now. */
  get size(): number {
    return this.#counts.size;
  }

  /** The count of `key` while its window lasts. */
  #live(key: string): Count | undefined {
    const count = this.#counts.get(key);
    if (count === undefined || count.resetTime.getTime() > Date.now()) return count;
    this.#counts.delete(key);
    return undefined;
  }
}
