// What a run of `<form-embed>` waits for. Each wait ends its timer, listener or observer when the
// run's signal aborts, and then never settles: the run is over and nothing is left behind.

/** Resolves after `ms`, or after about 24.8 days (the longest a timer waits) if that is sooner. */
export function sleep(ms: number, signal: AbortSignal) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, Math.min(ms, 2 ** 31 - 1));
    signal.addEventListener('abort', () => clearTimeout(timer));
  });
}

/** Resolves at the window's next `online` event. */
export function online(signal: AbortSignal) {
  return new Promise((resolve) => addEventListener('online', resolve, { once: true, signal }));
}

/** Resolves when `element` comes within 200px of the viewport. */
export function nearViewport(element: Element, signal: AbortSignal) {
  return new Promise((resolve) => {
    const observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && resolve(observer.disconnect()),
      { rootMargin: '200px' },
    );
    observer.observe(element);
    signal.addEventListener('abort', () => observer.disconnect());
  });
}
