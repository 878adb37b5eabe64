import assert from 'node:assert/strict';
import { test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import { sleep } from '../src/sleep.js';

// The latency and delay faults wait with `sleep`; the delay fault is checked over HTTP in
// control.test.ts, where a latency as long cannot be told from a held request without waiting.
test("sleep longer than Node's longest timer (2^31 - 1 ms) waits that longest timer, not 1 ms", async (t) => {
  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout'],
    shouldClearNativeTimers: true,
  });
  t.after(() => clock.uninstall());
  let slept = false;
  void sleep(3e9).then(() => {
    slept = true;
  });
  await clock.tickAsync(2 ** 31 - 2);
  assert.equal(slept, false, 'still asleep a millisecond before the longest timer');
  await clock.tickAsync(1);
  assert.equal(slept, true);
});
