import type { RateLimit, SandboxLimits } from './options.js';

/** A per-key limit of the API: `mints` (the form-session endpoints) or `reads` (every GET). */
export type LimitKind = 'mints' | 'reads';

export interface LimitDecision {
  allowed: boolean;
  /** `X-RateLimit-Limit`: the bucket's capacity, the burst. */
  limit: number;
  /** `X-RateLimit-Remaining`: the whole tokens left after this request. */
  remaining: number;
  /** `Retry-After`, set when refused: whole seconds until the next token, at least 1. */
  retryAfter?: number;
}

/** How long `exhaust` keeps a bucket empty, as if the key's other users took each token. */
const EXHAUSTED_MS = 60_000;

/**
 * Float error allowed when a rate's token is no whole millisecond (7 a minute: 8571.43 ms), a
 * microsecond: without it the burst's last token read as 1e-10 ms away, and a clock moved by
 * such a token (`advanceClock(60 / 7)`) on today's epoch is rounded to 0.24 µs.
 */
const TOLERANCE_MS = 1e-3;

interface Bucket {
  /** What the bucket lacked when last read, in ms of refill: 0 when full. */
  lacking: number;
  /** When it was last read, on the sandbox's clock (ms). */
  at: number;
}

/**
 * Per-key limits (docs/contract.md#limits) as token buckets: "N a minute, bursts to B" is a
 * bucket of B tokens, full at first, refilled at N a minute; a request takes one token or is
 * refused (a refusal takes none). A bucket is kept as what it lacked, in ms of refill, when it
 * was last read (a small number, not a moment of the epoch, whose last bit is 0.24 µs), so it
 * holds `burst - lacking / msPerToken` tokens: exact for the contract's rates (500 ms and 100 ms
 * a token), within `TOLERANCE_MS` for any other. Buckets run on the sandbox's clock (`now`), so
 * `control.advanceClock()` refills one without waiting. Keys are the fixture keys only (a
 * request is counted after it authenticates), so the buckets stay few.
 */
export class RateLimits {
  #limits: Required<SandboxLimits>;
  #now: () => number;
  #buckets = new Map<`${LimitKind} ${string}`, Bucket>();

  constructor(limits: Required<SandboxLimits>, now: () => number) {
    this.#limits = limits;
    this.#now = now;
  }

  take(kind: LimitKind, key: string): LimitDecision {
    const { burst } = this.#limits[kind];
    const perToken = msPerToken(this.#limits[kind]);
    const now = this.#now();
    const id = `${kind} ${key}` as const;
    const bucket = this.#buckets.get(id) ?? { lacking: 0, at: now };
    // A Date set back (a test faking an earlier day) refills nothing: the bucket lacks what it
    // lacked, rather than reading as empty until the clock catches up.
    const lacking = Math.max(0, bucket.lacking - Math.max(0, now - bucket.at));
    // Compared in ms, not tokens, so that the contract's rates stay exact.
    const msToToken = lacking - (burst - 1) * perToken;
    if (msToToken <= TOLERANCE_MS) {
      this.#buckets.set(id, { lacking: lacking + perToken, at: now });
      const remaining = Math.floor((burst * perToken - lacking + TOLERANCE_MS) / perToken) - 1;
      return { allowed: true, limit: burst, remaining };
    }
    this.#buckets.set(id, { lacking, at: now });
    return {
      allowed: false,
      limit: burst,
      remaining: 0,
      retryAfter: Math.max(1, Math.ceil((msToToken - TOLERANCE_MS) / 1000)),
    };
  }

  /**
   * Empties these keys' buckets and keeps them empty for a minute of the sandbox's clock, as if
   * the key's other users took each token as it came: the next request is refused with
   * `Retry-After: 60`, and the first token comes 60 s on.
   */
  exhaust(kind: LimitKind, keys: Iterable<string>): void {
    const { burst } = this.#limits[kind];
    const perToken = msPerToken(this.#limits[kind]);
    const now = this.#now();
    const lacking = EXHAUSTED_MS + (burst - 1) * perToken;
    for (const key of keys) this.#buckets.set(`${kind} ${key}`, { lacking, at: now });
  }

  reset(): void {
    this.#buckets.clear();
  }
}

function msPerToken({ perMinute }: RateLimit): number {
  return 60_000 / perMinute;
}
