import assert from 'node:assert/strict';
import { test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import { withTimeout } from '../src/with-timeout.js';

test('work that settles in the turn after the timer fired wins, and timedOut is never called', async () => {
  // The bound's timer, then the one settling the work, both due at 1 ms; then the extra turn.
  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout', 'setImmediate'],
    shouldClearNativeTimers: true,
  });
  try {
    let calls = 0;
    let answer: (value: string) => void = () => {};
    const work = new Promise<string>((resolve) => {
      answer = resolve;
    });
    const bounded = withTimeout(work, 1, () => {
      calls += 1;
      return new Error('late');
    });
    setTimeout(() => answer('answer'), 1);
    await clock.tickAsync(1);
    await clock.runAllAsync();
    assert.equal(await bounded, 'answer');
    assert.equal(calls, 0, 'timedOut (which may close the connection) was not called');
  } finally {
    clock.uninstall();
  }
});

test('work that has not settled after the extra turn is rejected with timedOut()', async () => {
  let calls = 0;
  const never = new Promise<never>(() => {});
  await assert.rejects(
    withTimeout(never, 1, () => {
      calls += 1;
      return new Error('late');
    }),
    /late/,
  );
  assert.equal(calls, 1);
});

test('the timer is cleared once the work settles: none is left behind to hold the process or fire later', async (t) => {
  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout', 'setImmediate'],
    shouldClearNativeTimers: true,
  });
  t.after(() => clock.uninstall());
  const bounded = withTimeout(Promise.resolve('answer'), 10_000, () => new Error('late'));
  assert.equal(clock.countTimers(), 1, 'the bound is timed while the work runs');
  assert.equal(await bounded, 'answer');
  assert.equal(clock.countTimers(), 0);
});
