import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withTimeout } from '../src/with-timeout.js';

test('work that settles in the turn after the timer fired wins, and timedOut is never called', async () => {
  let calls = 0;
  let answer: (value: string) => void = () => {};
  const work = new Promise<string>((resolve) => {
    answer = resolve;
  });
  const bounded = withTimeout(work, 1, () => {
    calls += 1;
    return new Error('late');
  });
  // Both timers are due in one timers phase: the bound's first, then the one settling the work.
  setTimeout(() => answer('answer'), 1);
  assert.equal(await bounded, 'answer');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(calls, 0, 'timedOut (which may close the connection) was not called');
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
