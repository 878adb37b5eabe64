import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { mountMiddleware, openForm } from './helpers/harness.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { SecretWatch } from './helpers/secret-watch.js';

// rate-limit-redis keeps its script's SHA as a promise, loaded by `init` and loaded again after a
// NOSCRIPT (a Redis restart empties the script cache). When that reload fails, the promise stays
// rejected and every later increment fails with the same error, whatever Redis does next: the
// limits stay off until the portal restarts. Here the reload fails on an ACL rule, the one way a
// test can make it fail between NOSCRIPT and SCRIPT LOAD on a real server (in production, the
// connection lost in between, Redis restarted again). Nothing here waits on time.

const watch = new SecretWatch();
let sandbox: Sandbox;
let redis: RedisServer;
let client: ReturnType<typeof createClient>;

before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox(), startRedis()]);
  client = createClient({ url: redis.url, disableOfflineQueue: true });
  client.on('error', () => {});
  await client.connect();
});

after(async () => {
  client?.destroy();
  await redis?.kill();
  await sandbox?.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

const outageLines = (from: number, pattern: RegExp) =>
  watch.logLines.slice(from).filter((line) => pattern.test(line.message));

test('a script reload that fails after NOSCRIPT is an outage that ends once Redis can load it again: counting resumes without restarting the portal', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    limit: {
      store: new RedisStore({ sendCommand: (...args: string[]) => client.sendCommand(args) }),
      prefix: 'script-reload:',
      // A loaded machine must not turn a slow answer into an uncounted mint.
      storeTimeoutMs: 10_000,
    },
  });
  assert.equal((await portal.mint(openForm, { session: 'adele' })).status, 200);
  const from = watch.logLines.length;

  // Redis forgets the script (as after a restart) and, for a moment, refuses to load it.
  assert.equal(await redis.command('SCRIPT', 'FLUSH'), '+OK');
  assert.equal(await redis.command('ACL', 'SETUSER', 'default', '-script'), '+OK');
  const uncounted = await portal.mint(openForm, { session: 'adele' });
  assert.equal(uncounted.status, 200, uncounted.text);
  assert.equal(outageLines(from, /^the limit store failed/).length, 1);

  assert.equal(await redis.command('ACL', 'SETUSER', 'default', '+@all'), '+OK');
  for (let mint = 1; mint <= 10; mint++) {
    const answer = await portal.mint(openForm, { session: 'alex' });
    assert.equal(answer.status, 200, `mint ${mint}: ${answer.text}`);
  }
  const refused = await portal.mint(openForm, { session: 'alex' });
  assert.equal(refused.status, 429, 'the 11th mint was not counted');
  assert.equal(outageLines(from, /^the limit store answers again/).length, 1);
  assert.equal(outageLines(from, /^the limit store failed/).length, 1, 'logged once');
});
