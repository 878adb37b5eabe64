/** The portal's own callback did not settle within `timeoutMs`. */
export class CallbackTimeout extends Error {
  override readonly name = 'CallbackTimeout';
}

/**
 * Waits for one of the portal's callbacks (`resolveUser`, `authorize`) at most `timeoutMs`,
 * as for the service: a session store that never answers must not leave the browser loading
 * for ever. Rejects with `CallbackTimeout` when late; the callback's own outcome is dropped. A
 * callback that answers at once (not a promise) needs no timer: it costs a mint nothing.
 */
export async function settleWithin<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  const result = work();
  if (typeof (result as PromiseLike<T> | undefined)?.then !== 'function') return result as T;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CallbackTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([result as PromiseLike<T>, late]);
  } finally {
    clearTimeout(timer);
  }
}
