/** The time source of `<form-embed>`: replaceable so tests control time. */
export interface Clock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(id: unknown): void;
  /** A number in [0, 1) for the backoff jitter. */
  random(): number;
}

/** The window's own timers, looked up at each call. */
export const systemClock: Clock = {
  now: Date.now,
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (id) => clearTimeout(id as number),
  random: Math.random,
};

/** Mint attempts before a retryable failure is given up. */
export const MAX_ATTEMPTS = 4;

/**
 * Remints the framed page may ask for before the element stops: at most 3 within a minute (a page
 * that answers `error` at once) and 6 within the 30 minutes a signed-in session lasts (a slower
 * loop). A healthy page asks about once per session, when it lapses.
 */
export const REMINT_BOUNDS: readonly (readonly [limit: number, windowMs: number])[] = [
  [3, 60_000],
  [6, 1_800_000],
];

/** An answer is framed only while its handle has at least this many seconds left. */
export const FRESHNESS_MARGIN_S = 10;

/**
 * Milliseconds before retry number `attempt` (from 1): exponential backoff from 1 s with equal
 * jitter, and never less than `Retry-After`, plus up to 10% of it so that the many clients told
 * the same Retry-After do not all come back at once.
 */
export function retryDelay(attempt: number, retryAfter: number | undefined, random: number) {
  return Math.max(
    (retryAfter ?? 0) * 1000 * (1 + random / 10),
    500 * 2 ** (attempt - 1) * (1 + random),
  );
}
