import { withTimeout } from './with-timeout.js';

/** One of the portal's callbacks did not settle within `timeoutMs`; the message says which. */
export class CallbackTimeout extends Error {
  override readonly name = 'CallbackTimeout';
}

/**
 * `callback` (`resolveUser`, `authorize`) bound by `timeoutMs`, as a request to the service
 * is: a session store that never answers must not leave the browser loading for ever. A late
 * call rejects with `CallbackTimeout`; its own outcome is dropped. A call that answers at once
 * (not a promise) needs no timer: it costs a mint nothing.
 */
export function bounded<A extends unknown[], T>(
  name: string,
  callback: (...args: A) => T | PromiseLike<T>,
  timeoutMs: number,
): (...args: A) => Promise<T> {
  return async (...args) => {
    const result = callback(...args);
    if (typeof (result as PromiseLike<T> | undefined)?.then !== 'function') return result as T;
    return withTimeout(
      result as PromiseLike<T>,
      timeoutMs,
      () => new CallbackTimeout(`${name} did not answer within timeoutMs (${timeoutMs} ms)`),
    );
  };
}
