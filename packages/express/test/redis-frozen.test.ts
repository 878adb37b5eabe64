import assert from 'node:assert/strict';
import { test } from 'node:test';
import FakeTimers from '@sinonjs/fake-timers';
import { RedisStore } from 'rate-limit-redis';
import { mountMiddleware, openForm } from './helpers/harness.js';
import { sandboxAndRedis } from './helpers/sandbox-and-redis.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesWithin } from './helpers/settles.js';

// A signed-out mint checks two limits on one store: the client address's and the one all
// signed-out visitors share. A frozen Redis (SIGSTOP: connections open, nothing answered) must
// hold it for limit.storeTimeoutMs in all, not once per limit. The middleware's timers are fake;
// the sockets keep real time.

const STORE_TIMEOUT_MS = 250;
const watch = new SecretWatch();
const setup = sandboxAndRedis(watch);

test('a frozen Redis holds a signed-out mint for limit.storeTimeoutMs in all, though it checks two limits', {
  timeout: 10_000,
}, async (t) => {
  // Called with each command the store sends (its scripts loaded again, or an increment).
  let asked: () => void = () => {};
  const store = new RedisStore({
    sendCommand: (...args: string[]) => {
      asked();
      return setup.client.sendCommand(args);
    },
  });
  await using portal = await mountMiddleware(
    watch,
    {
      apiKey: setup.sandbox.apiKey,
      baseUrl: setup.sandbox.baseUrl,
      limit: { store, prefix: 'frozen:', storeTimeoutMs: STORE_TIMEOUT_MS },
    },
    (app) => app.set('trust proxy', 'loopback'),
  );
  const from = (address: string) =>
    portal.mint(openForm, { headers: { 'x-forwarded-for': address } });
  // Counted while Redis answers: its scripts are loaded.
  assert.equal((await from('203.0.113.1')).status, 200);

  const clock = FakeTimers.install({
    toFake: ['setTimeout', 'clearTimeout'],
    shouldClearNativeTimers: true,
  });
  setup.redis.pause();
  t.after(async () => {
    setup.redis.resume();
    // A mint still waiting (a failure below) gets its answer.
    await clock.tickAsync(STORE_TIMEOUT_MS);
    clock.uninstall();
  });
  for (const [mint, address] of ['203.0.113.2', '203.0.113.3'].entries()) {
    let settled = false;
    const firstAsk = new Promise<void>((resolve) => {
      asked = resolve;
    });
    const answered = from(address).finally(() => {
      settled = true;
    });
    await firstAsk;
    await clock.tickAsync(STORE_TIMEOUT_MS - 1);
    assert.equal(settled, false, `mint ${mint + 1}: still waiting for the store`);
    const askedAgain = new Promise<string>((resolve) => {
      asked = () => resolve('asked Redis again, and waits for it again');
    });
    await clock.tickAsync(1);
    const outcome = Promise.race([
      answered.then((answer) => `answered ${answer.status}`),
      askedAgain,
    ]);
    assert.ok(await settlesWithin(outcome), `mint ${mint + 1}: neither answered nor asked again`);
    assert.equal(await outcome, 'answered 200', `mint ${mint + 1}`);
  }
});
