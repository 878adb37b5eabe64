/**
 * `work`, or a rejection with `timedOut()` once `timeoutMs` have passed, whichever comes first;
 * the timer is cleared either way. On a busy event loop a timer can fire before an answer already
 * waiting on a socket is read: one more turn (poll before check) lets that answer win the race.
 */
export function withTimeout<T>(
  work: PromiseLike<T>,
  timeoutMs: number,
  timedOut: () => Error,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(timedOut())), timeoutMs);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
