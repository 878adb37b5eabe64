import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { RateLimit, SandboxLimits } from './options.js';

export type LimitKind = 'mints' | 'reads';

export interface LimitDecision {
  allowed: boolean;
  /** `X-RateLimit-Limit`: the requests a key may send in one window (the burst). */
  limit: number;
  /** `X-RateLimit-Remaining`. */
  remaining: number;
  /** Seconds until the key may send again; set when refused. */
  retryAfter?: number;
}

/**
 * Per-key limits (docs/contract.md#limits) on rate-limiter-flexible's memory store: each key
 * gets `burst` requests per window of `burst / perMinute` minutes, so a key can spend its
 * burst at once and keeps the contract's rate over time.
 */
export class RateLimits {
  #limits: Required<SandboxLimits>;
  #limiters = new Map<LimitKind, RateLimiterMemory>();

  constructor(limits: Required<SandboxLimits>) {
    this.#limits = limits;
    this.reset();
  }

  async take(kind: LimitKind, key: string): Promise<LimitDecision> {
    const { burst } = this.#limits[kind];
    try {
      const res = await this.#limiter(kind).consume(key);
      return { allowed: true, limit: burst, remaining: res.remainingPoints };
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return {
        allowed: false,
        limit: burst,
        remaining: 0,
        retryAfter: Math.max(1, Math.ceil(error.msBeforeNext / 1000)),
      };
    }
  }

  /** Spends the rest of the current window for these keys, so their next request is refused. */
  async exhaust(kind: LimitKind, keys: Iterable<string>): Promise<void> {
    const { burst } = this.#limits[kind];
    for (const key of keys) {
      await this.#limiter(kind).set(key, burst, windowSeconds(this.#limits[kind]));
    }
  }

  reset(): void {
    for (const kind of ['mints', 'reads'] as const) {
      const limit = this.#limits[kind];
      this.#limiters.set(
        kind,
        new RateLimiterMemory({ points: limit.burst, duration: windowSeconds(limit) }),
      );
    }
  }

  #limiter(kind: LimitKind): RateLimiterMemory {
    const limiter = this.#limiters.get(kind);
    if (!limiter) throw new Error(`no limiter for ${kind}`);
    return limiter;
  }
}

function windowSeconds({ perMinute, burst }: RateLimit): number {
  return Math.max(1, Math.ceil((burst * 60) / perMinute));
}
