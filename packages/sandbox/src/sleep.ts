/**
 * Node's longest timer (2^31 - 1 ms, about 24.8 days): a longer one fires after 1 ms, with a
 * TimeoutOverflowWarning, so a delay fault of 1e10 ms, meant as an upstream that never answers,
 * would answer at once.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Resolves true after `ms` (at most about 24.8 days), or false as soon as `signal` aborts (its
 * timer cleared); the timer does not keep a closed sandbox's process alive.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const stop = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', stop);
        resolve(true);
      },
      Math.min(ms, MAX_TIMER_MS),
    ).unref();
    signal?.addEventListener('abort', stop, { once: true });
  });
}
