import assert from 'node:assert/strict';
import { test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import type { Options } from 'express-rate-limit';
import { BoundedMemoryStore } from '../src/bounded-memory-store.js';

const WINDOW_MS = 60_000;

function storeOf(maxKeys?: number) {
  const store = new BoundedMemoryStore(maxKeys);
  store.init({ windowMs: WINDOW_MS } as Options);
  return store;
}

test('counts a key in a fixed window from its first hit, then starts afresh', (t) => {
  const clock = FakeTimers.install({ toFake: ['Date'], now: 1_000_000 });
  t.after(() => clock.uninstall());
  const store = storeOf();
  const first = store.increment('a');
  assert.deepEqual(first, { totalHits: 1, resetTime: new Date(1_000_000 + WINDOW_MS) });
  clock.tick(WINDOW_MS - 1);
  assert.equal(store.increment('a').totalHits, 2, 'the window has not moved');
  store.decrement('a');
  assert.equal(store.get('a')?.totalHits, 1);
  clock.tick(1);
  assert.equal(store.get('a'), undefined, 'the window ended');
  assert.deepEqual(store.increment('a'), {
    totalHits: 1,
    resetTime: new Date(1_000_000 + 2 * WINDOW_MS),
  });
  store.resetKey('a');
  assert.equal(store.get('a'), undefined);
});

test('holds at most maxKeys keys: a flood of new keys pushes out the least recently counted, never grows', () => {
  const store = storeOf(3);
  store.increment('user');
  for (const flood of ['x1', 'x2']) store.increment(flood);
  store.increment('user'); // counted again: now the most recent
  for (const flood of ['x3', 'x4', 'x5']) store.increment(flood);
  assert.equal(store.size, 3);
  assert.equal(store.get('user'), undefined, 'pushed out by three newer keys');
  store.increment('user');
  store.increment('x6');
  store.increment('x7');
  assert.equal(store.get('user')?.totalHits, 1, 'the most recent three are kept');
});

test('counts in the window express-rate-limit gives it, never below 0, and drops a key once its window has ended', (t) => {
  const clock = FakeTimers.install({ toFake: ['Date'], now: 1_000_000 });
  t.after(() => clock.uninstall());
  const store = new BoundedMemoryStore();
  store.init({ windowMs: 1_500 } as Options);
  assert.deepEqual(store.increment('a'), { totalHits: 1, resetTime: new Date(1_001_500) });
  store.decrement('a');
  store.decrement('a');
  assert.equal(store.get('a')?.totalHits, 0, 'a decrement past 0 is not counted');
  assert.equal(store.increment('a').totalHits, 1);
  clock.tick(1_500);
  assert.equal(store.get('a'), undefined);
  assert.equal(store.size, 0, 'an ended window is not kept');
});

test('by default holds at most 50,000 keys, the bound the README sizes at about 25 MB', () => {
  const store = storeOf();
  for (let i = 0; i <= 50_000; i++) store.increment(`ip:198.51.${i >> 8}.${i & 255}`);
  assert.equal(store.size, 50_000);
  assert.equal(store.get('ip:198.51.0.0'), undefined, 'the least recently counted went first');
  assert.equal(store.get('ip:198.51.0.1')?.totalHits, 1);
});
