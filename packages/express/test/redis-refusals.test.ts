import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { mountMiddleware, openForm } from './helpers/harness.js';
import { sandboxAndRedis } from './helpers/sandbox-and-redis.js';
import { SecretWatch } from './helpers/secret-watch.js';

// A Redis that answers, but refuses: full under noeviction, or the portal's password wrong. Each
// is an outage of the limit store as the README's Redis section says (When the store fails).

const watch = new SecretWatch();
const setup = sandboxAndRedis(watch);

const linesFrom = (from: number, pattern: RegExp) =>
  watch.logLines.slice(from).filter((line) => pattern.test(line.message));

test("a Redis at its maxmemory with noeviction refuses each count (OOM): mints go on uncounted, the outage is logged once with Redis's reason, and counting resumes once it has room, without a restart", async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: setup.sandbox.apiKey,
    baseUrl: setup.sandbox.baseUrl,
    limit: {
      store: new RedisStore({ sendCommand: (...args: string[]) => setup.client.sendCommand(args) }),
      prefix: 'full:',
      // A loaded machine must not turn a slow answer into an uncounted mint.
      storeTimeoutMs: 10_000,
      mints: 10,
    },
  });
  assert.equal((await portal.mint(openForm, { session: 'adele' })).status, 200);
  const from = watch.logLines.length;
  assert.equal(await setup.redis.command('CONFIG', 'SET', 'maxmemory-policy', 'noeviction'), '+OK');
  assert.equal(await setup.redis.command('CONFIG', 'SET', 'maxmemory', '1'), '+OK');
  try {
    for (let mint = 1; mint <= 12; mint++) {
      const answer = await portal.mint(openForm, { session: 'alex' });
      assert.equal(answer.status, 200, `mint ${mint}: ${answer.text}`);
    }
  } finally {
    assert.equal(await setup.redis.command('CONFIG', 'SET', 'maxmemory', '0'), '+OK');
  }
  const [began, ...more] = linesFrom(from, /^the limit store failed/);
  assert.deepEqual(more, []);
  assert.match(String(began?.details?.reason), /OOM command not allowed/);

  for (let mint = 1; mint <= 10; mint++) {
    const answer = await portal.mint(openForm, { session: 'megan' });
    assert.equal(answer.status, 200, `mint ${mint}: ${answer.text}`);
  }
  assert.equal((await portal.mint(openForm, { session: 'megan' })).status, 429);
  assert.equal(linesFrom(from, /^the limit store answers again/).length, 1);
});

test("a wrong Redis password: mints go on uncounted, the middleware logs the outage once (the client is offline), and the cause is for the client's own listener", async () => {
  // A user of its own with a password, so that the test's own connections need none.
  assert.equal(
    await setup.redis.command('ACL', 'SETUSER', 'portal', 'on', '>right', '~*', '+@all'),
    '+OK',
  );
  const url = new URL(setup.redis.url);
  url.username = 'portal';
  url.password = 'wrong';
  const client = createClient({ url: url.href, disableOfflineQueue: true });
  // node-redis reconnects and is refused again, each time an error: the first says why.
  const refused = new Promise<string>((resolve) => {
    client.on('error', (error: Error) => resolve(error.message));
  });
  client.connect().catch(() => {});
  try {
    assert.match(await refused, /^WRONGPASS/);
    await using portal = await mountMiddleware(watch, {
      apiKey: setup.sandbox.apiKey,
      baseUrl: setup.sandbox.baseUrl,
      limit: {
        store: new RedisStore({ sendCommand: (...args: string[]) => client.sendCommand(args) }),
        prefix: 'wrong-password:',
      },
    });
    const from = watch.logLines.length;
    for (let mint = 1; mint <= 11; mint++) {
      const answer = await portal.mint(openForm, { session: 'adele' });
      assert.equal(answer.status, 200, `mint ${mint}: ${answer.text}`);
    }
    const [began, ...more] = linesFrom(from, /^the limit store failed/);
    assert.deepEqual(more, []);
    assert.equal(began?.details?.reason, 'Error: The client is offline');
  } finally {
    client.destroy();
  }
});
