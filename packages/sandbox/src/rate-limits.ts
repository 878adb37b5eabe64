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

interface Window {
  /** When the window opened, on the sandbox's clock (ms). */
  openedAt: number;
  used: number;
}

/**
 * Per-key limits (docs/contract.md#limits) as fixed windows: each key gets `burst` requests per
 * window of `burst / perMinute` minutes, opened by its first request, so a key can spend its
 * burst at once and keeps the contract's rate over time. Windows run on the sandbox's clock
 * (`now`), so `control.advanceClock()` closes a spent one without waiting. Keys are the fixture
 * keys only (a request is counted after it authenticates), so the windows stay few.
 */
export class RateLimits {
  #limits: Required<SandboxLimits>;
  #now: () => number;
  #windows = new Map<`${LimitKind} ${string}`, Window>();

  constructor(limits: Required<SandboxLimits>, now: () => number) {
    this.#limits = limits;
    this.#now = now;
  }

  take(kind: LimitKind, key: string): LimitDecision {
    const { burst } = this.#limits[kind];
    const window = this.#current(kind, key);
    if (window.used < burst) {
      window.used += 1;
      return { allowed: true, limit: burst, remaining: burst - window.used };
    }
    const msLeft = window.openedAt + windowMs(this.#limits[kind]) - this.#now();
    return {
      allowed: false,
      limit: burst,
      remaining: 0,
      retryAfter: Math.max(1, Math.ceil(msLeft / 1000)),
    };
  }

  /** Spends a whole new window for these keys, so their next request is refused. */
  exhaust(kind: LimitKind, keys: Iterable<string>): void {
    const { burst } = this.#limits[kind];
    for (const key of keys) {
      this.#windows.set(`${kind} ${key}`, { openedAt: this.#now(), used: burst });
    }
  }

  reset(): void {
    this.#windows.clear();
  }

  /** The key's open window, or a new one when there is none or it has closed. */
  #current(kind: LimitKind, key: string): Window {
    const now = this.#now();
    const id = `${kind} ${key}` as const;
    const window = this.#windows.get(id);
    if (window && now < window.openedAt + windowMs(this.#limits[kind])) return window;
    const opened = { openedAt: now, used: 0 };
    this.#windows.set(id, opened);
    return opened;
  }
}

function windowMs({ perMinute, burst }: RateLimit): number {
  return Math.max(1, Math.ceil((burst * 60) / perMinute)) * 1000;
}
