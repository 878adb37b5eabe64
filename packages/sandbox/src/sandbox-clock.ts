/**
 * The sandbox's clock: wall time plus an offset that `control.advanceClock()` moves forward,
 * so a test can age a handle, lapse a session or refill a rate-limit bucket without waiting.
 * Handles, sessions and rate-limit buckets read this clock; latency and delay faults are real
 * timers (a delay tests the client's own timeout, which does not read this clock).
 */
export class SandboxClock {
  #offsetMs = 0;

  now(): number {
    return Date.now() + this.#offsetMs;
  }

  /** Moves the clock forward by `seconds` (a finite number >= 0). */
  advance(seconds: number): void {
    if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
      throw new TypeError('seconds must be a finite number >= 0');
    }
    this.#offsetMs += seconds * 1000;
  }

  /** Back to wall time. */
  reset(): void {
    this.#offsetMs = 0;
  }
}
