import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RedisStore } from 'rate-limit-redis';
import { mountMiddleware, openForm } from './helpers/harness.js';
import { sandboxAndRedis } from './helpers/sandbox-and-redis.js';
import { SecretWatch } from './helpers/secret-watch.js';

// rate-limit-redis keeps its script's SHA as a promise, loaded by `init` and loaded again after a
// NOSCRIPT (a Redis restart empties the script cache). When that reload fails, the promise stays
// rejected and every later increment fails with the same error, whatever Redis does next: the
// limits stay off until the portal restarts. Here the reload fails on an ACL rule, the one way a
// test can make it fail between NOSCRIPT and SCRIPT LOAD on a real server (in production, the
// connection lost in between, Redis restarted again). Nothing here waits on time.

const watch = new SecretWatch();
const setup = sandboxAndRedis(watch);

const outageLines = (from: number, pattern: RegExp) =>
  watch.logLines.slice(from).filter((line) => pattern.test(line.message));

test('a script reload that fails after NOSCRIPT is an outage that ends once Redis can load it again: counting resumes without restarting the portal', async () => {
  await using portal = await mountMiddleware(watch, {
    apiKey: setup.sandbox.apiKey,
    baseUrl: setup.sandbox.baseUrl,
    limit: {
      store: new RedisStore({ sendCommand: (...args: string[]) => setup.client.sendCommand(args) }),
      prefix: 'script-reload:',
      // A loaded machine must not turn a slow answer into an uncounted mint.
      storeTimeoutMs: 10_000,
      mints: 10,
    },
  });
  assert.equal((await portal.mint(openForm, { session: 'adele' })).status, 200);
  const from = watch.logLines.length;

  // Redis forgets the script (as after a restart) and, for a moment, refuses to load it.
  assert.equal(await setup.redis.command('SCRIPT', 'FLUSH'), '+OK');
  assert.equal(await setup.redis.command('ACL', 'SETUSER', 'default', '-script'), '+OK');
  const uncounted = await portal.mint(openForm, { session: 'adele' });
  assert.equal(uncounted.status, 200, uncounted.text);
  assert.equal(outageLines(from, /^the limit store failed/).length, 1);

  assert.equal(await setup.redis.command('ACL', 'SETUSER', 'default', '+@all'), '+OK');
  for (let mint = 1; mint <= 10; mint++) {
    const answer = await portal.mint(openForm, { session: 'alex' });
    assert.equal(answer.status, 200, `mint ${mint}: ${answer.text}`);
  }
  const refused = await portal.mint(openForm, { session: 'alex' });
  assert.equal(refused.status, 429, 'the 11th mint was not counted');
  assert.equal(outageLines(from, /^the limit store answers again/).length, 1);
  assert.equal(outageLines(from, /^the limit store failed/).length, 1, 'logged once');
});
