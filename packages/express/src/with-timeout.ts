/**
 * `work`, or a rejection with `timedOut()` once `timeoutMs` have passed, whichever comes first;
 * the timer is cleared either way. On a busy event loop a timer can fire before an answer already
 * waiting on a socket is read: one more turn (poll before check) lets that answer win the race.
 * `timedOut` is called only when `work` has lost it, so it may act (close the connection): `work`
 * settling in that turn, after the timer fired, never reaches it.
 */
export function withTimeout<T>(
  work: PromiseLike<T>,
  timeoutMs: number,
  timedOut: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let settled = false;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        setImmediate(() => {
          if (!settled) reject(timedOut());
        }),
      timeoutMs,
    );
  });
  return Promise.race([work, late]).finally(() => {
    // Before the check phase: microtasks run first, so the setImmediate above sees it.
    settled = true;
    clearTimeout(timer);
  });
}
