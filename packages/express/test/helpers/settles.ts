import assert from 'node:assert/strict';
import type FakeTimers from '@sinonjs/fake-timers';

/**
 * Whether `promise` settles within `boundMs` of real time (read from `process.hrtime`, which the
 * tests' fake clocks leave alone), turning the event loop meanwhile: for an answer a fake clock
 * has just let go, which still travels real loopback sockets. Awaited unbounded, an answer that
 * never comes would hang the test (and leave its fake clock installed) instead of failing it.
 */
export async function settlesWithin(promise: Promise<unknown>, boundMs = 2_000): Promise<boolean> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  promise.then(done, done);
  const deadline = process.hrtime.bigint() + BigInt(boundMs) * 1_000_000n;
  while (!settled && process.hrtime.bigint() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
  }
  return settled;
}

/**
 * `answer`, which waits on `clock` for `ms`: not settled 1 ms before, settled once `ms` has
 * passed (settlesWithin). `what` names it in a failure.
 */
export async function settlesAtExactly<T>(
  clock: ReturnType<typeof FakeTimers.install>,
  answer: Promise<T>,
  ms: number,
  what: string,
): Promise<T> {
  let settled = false;
  const done = () => {
    settled = true;
  };
  answer.then(done, done);
  await clock.tickAsync(ms - 1);
  assert.equal(settled, false, `${what}: not answered before ${ms} ms`);
  await clock.tickAsync(1);
  assert.ok(await settlesWithin(answer), `${what}: answered once ${ms} ms had passed`);
  return answer;
}
