/** Mint attempts before a retryable failure is given up. */
export const MAX_ATTEMPTS = 4;

/**
 * Remints the framed page may ask for within REMINT_WINDOW_MS (the 30 minutes a signed-in session
 * lasts) before the element stops. A healthy page asks about once per session, when it lapses; a
 * page that answers `error` after every remint, at once or slowly, is stopped after a few.
 */
const MAX_REMINTS = 4;
const REMINT_WINDOW_MS = 1_800_000;

/**
 * A counter of the framed page's remints: each call counts one and answers true while they stay
 * within MAX_REMINTS in REMINT_WINDOW_MS. On the wall clock, unlike the waits: a session lapses
 * while the computer sleeps, which performance.now does not count on most systems.
 */
export function remintBound() {
  let at: number[] = [];
  return () => {
    const now = Date.now();
    at = at.filter((time) => now - time < REMINT_WINDOW_MS);
    return at.push(now) <= MAX_REMINTS;
  };
}

/**
 * How long one attempt may go unanswered before it is abandoned and retried (`unavailable`): a mint
 * held by a network that swallows the request left "Loading the form…" up forever. The middleware
 * bounds each step of a mint by its timeoutMs (10 s by default); an answer past 60 s could not be
 * framed anyway (half of a 120 s handle's life, form-embed-element.ts).
 */
export const ATTEMPT_TIMEOUT_MS = 30_000;

/** The longest the element waits before a retry, whatever `Retry-After` says: 120 s. */
const MAX_RETRY_WAIT_MS = 120_000;

/**
 * Milliseconds before retry number `attempt` (from 1): the longer of `retryAfter` seconds and a
 * backoff that doubles from 1 s, plus up to 10% of it, so that the many clients told the same
 * Retry-After do not all come back at once; at most MAX_RETRY_WAIT_MS.
 */
export function retryDelay(attempt: number, retryAfter = 0, random = Math.random()) {
  return Math.min(
    Math.max(retryAfter * 1000, 500 << attempt) * (1 + random / 10),
    MAX_RETRY_WAIT_MS,
  );
}
