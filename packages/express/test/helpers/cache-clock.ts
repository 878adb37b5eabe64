import FakeTimers from '@sinonjs/fake-timers';

/**
 * A fake `performance` clock for the catalogue's caches (lru-cache reads `performance.now()`),
 * moved off 0 first: lru-cache reads a start time of 0 as "no start time".
 */
export function installCacheClock() {
  const clock = FakeTimers.install({ toFake: ['performance'] });
  clock.tick(1_000);
  return clock;
}
