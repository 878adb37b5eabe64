/** The portal's own callback did not settle within `timeoutMs`. */
export class CallbackTimeout extends Error {
  override readonly name = 'CallbackTimeout';
}

/**
 * Waits for one of the portal's callbacks (`resolveUser`, `authorize`) at most `timeoutMs`,
 * as for the service: a session store that never answers must not leave the browser loading
 * for ever. Rejects with `CallbackTimeout` when late; the callback's own outcome is dropped.
 */
export async function settleWithin<T>(work: () => T | Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CallbackTimeout()), timeoutMs);
  });
  try {
    return await Promise.race([Promise.resolve().then(work), late]);
  } finally {
    clearTimeout(timer);
  }
}
