// What a run of `<form-embed>` waits for. Each wait ends its timer, listener or observer when the
// run's signal aborts, and then never settles: the run is over and nothing is left behind.

/** Resolves after `ms` (at most MAX_RETRY_WAIT_MS, well within what a timer can wait). */
export function sleep(ms: number, signal: AbortSignal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => clearTimeout(timer));
  });
}

/**
 * Resolves at the window's next `online` event. Its listener, which a later `online` finds
 * settled, goes with the run, as the others do: `once` would cost bytes.
 */
export function online(signal: AbortSignal) {
  return new Promise((resolve) => addEventListener('online', resolve, { signal }));
}

/**
 * Resolves when `element` comes within 200px of the viewport, and of the view of each box it
 * scrolls in: rootMargin widens the viewport alone, so in a scrolled box (a dashboard's panel)
 * the element waited until it was in the box's view (scrollMargin, where the browser has it). The
 * last entry is where the element is now: one that passed by within a frame is not near.
 */
export function nearViewport(element: Element, signal: AbortSignal) {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => entries.pop()?.isIntersecting && resolve(observer.disconnect()),
      { rootMargin: '200px', scrollMargin: '200px' },
    );
    observer.observe(element);
    signal.addEventListener('abort', () => observer.disconnect());
  });
}

/**
 * A signal that aborts with `signal`, or `ms` from now: one attempt's. A timer, not
 * AbortSignal.timeout with AbortSignal.any, which Safari has only since 17.4 and which a test's
 * fake clock cannot move. Its timer ends with the run. An attempt answered in time keeps it: its
 * signal aborts `ms` after it began all the same, when nothing of the element's listens to it any
 * more (the element README tells a fetchSession so): clearing it on the answer cost bytes.
 */
export function timeLimited(signal: AbortSignal, ms: number) {
  const limited = new AbortController();
  const timer = setTimeout(() => limited.abort(), ms);
  // clearTimeout's undefined is the reason given: an AbortError, as from the timer.
  signal.addEventListener('abort', () => limited.abort(clearTimeout(timer)));
  return limited.signal;
}

/**
 * Resolves when a retry `ms` from now is due and the browser is online. A timer may fire a little
 * early: a retry never comes before its time, by performance.now (a wall clock set back, which
 * Date.now follows, would hold it back as long). Offline, it calls `offline` and waits for the
 * connection instead of spending an attempt.
 */
export async function untilRetry(ms: number, signal: AbortSignal, offline: () => void) {
  const due = performance.now() + ms;
  while (performance.now() < due) await sleep(due - performance.now(), signal);
  while (!navigator.onLine) {
    offline();
    await online(signal);
  }
}
