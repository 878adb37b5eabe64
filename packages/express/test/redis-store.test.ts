import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import { type PortalProcess, startPortalProcess } from './helpers/portal-process.js';
import { type RedisServer, startRedis } from './helpers/redis-server.js';
import { SecretWatch } from './helpers/secret-watch.js';

// A store answer slower than limit.storeTimeoutMs lets the mint through uncounted, by design. So
// that a loaded machine never loses a count by accident, only the pause test's mount
// (/short-timeout) has a short timeout, and the pause test checks which path ran.
const STORE_TIMEOUT_MS = 10_000;
const SHORT_STORE_TIMEOUT_MS = 500;

const watch = new SecretWatch();
let sandbox: Sandbox;
let redis: RedisServer;
/** The instances that requests alternate between. */
let portals: PortalProcess[] = [];
/** Every instance started, stopped at the end. */
const started: PortalProcess[] = [];
let portalEnv: Record<string, string>;

/** The instance that receives the `index`-th request when they alternate. */
function instance(index: number): PortalProcess {
  const portal = portals[index % portals.length];
  assert.ok(portal, 'the portal processes are not running');
  return portal;
}

before(async () => {
  [sandbox, redis] = await Promise.all([startSandbox(), startRedis()]);
  portalEnv = {
    PORTAL_BASE_URL: sandbox.baseUrl,
    PORTAL_API_KEY: sandbox.apiKey,
    REDIS_URL: redis.url,
    PORTAL_STORE_TIMEOUT_MS: String(STORE_TIMEOUT_MS),
    PORTAL_SHORT_STORE_TIMEOUT_MS: String(SHORT_STORE_TIMEOUT_MS),
  };
  portals = await Promise.all([
    startPortalProcess(watch, portalEnv),
    startPortalProcess(watch, portalEnv),
  ]);
  started.push(...portals);
  // A portal listens before its Redis client has connected: a mint sent in between would pass
  // uncounted, as an outage (the case a later test makes on purpose).
  await Promise.race([
    Promise.all(portals.map((portal) => portal.logged(/^redis ready$/, 0))),
    // A deadline for a failure, never waited out when Redis is there.
    new Promise((_, reject) =>
      setTimeout(() => reject(new Error('a portal never logged "redis ready"')), 10_000).unref(),
    ),
  ]);
});

after(async () => {
  await Promise.all(started.map((portal) => portal.stop()));
  await redis?.kill();
  await sandbox?.close();
  // The portals mint for a user (provider portal): their handles are watched too.
  assert.ok(watch.handles.size > 0, 'the watch saw no handle');
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** The mint-limit key of `user` on the first mount, as rate-limit-redis stores it. */
const mintKey = (user: string, prefix = 'portal:') =>
  `rl:${prefix}mint:user:${JSON.stringify(['', '', user])}`;

const outageBegan = (portal: PortalProcess, from: number) =>
  portal.logs.slice(from).filter((line) => /limit store failed/.test(line.message));
const outageEnded = (portal: PortalProcess, from: number) =>
  portal.logs.slice(from).filter((line) => /limit store answers again/.test(line.message));

/** Mints `count` times for `user`, alternating between the two instances; each must succeed. */
async function alternate(user: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const answer = await instance(i).mint(user);
    assert.equal(answer.status, 200, `mint ${i + 1} of ${user}: ${answer.text}`);
  }
}

/**
 * Until each portal counts mints in Redis again: once node-redis has reconnected and finished
 * its handshake (a command sent before fails, and lets its mint through uncounted), one
 * throwaway mint is counted, and the portal logs that the store answers again.
 */
async function untilCountingAgain(from: (portal: PortalProcess) => number): Promise<void> {
  for (const portal of portals) {
    await portal.logged(/^redis ready$/, from(portal));
    await portal.mint('probe@example.com');
    assert.equal(outageEnded(portal, from(portal)).length, 1, JSON.stringify(portal.logs));
  }
}

describe('two portal instances sharing one Redis', () => {
  test("one user's mints alternate between the instances and share one limit: the 11th is refused 429 with the shared window's Retry-After on whichever instance receives it", async () => {
    await alternate('ada@example.com', 10);
    // Connecting while the store loaded its scripts was no outage.
    for (const portal of portals) assert.deepEqual(outageBegan(portal, 0), []);
    const ttlMs = Number((await redis.command('PTTL', mintKey('ada@example.com'))).slice(1));
    assert.ok(ttlMs > 0 && ttlMs <= 60_000, `PTTL ${ttlMs}`);
    // The shared window, shortened to half a minute in Redis itself: each instance must tell
    // that, not a window of its own (the full 60 s a window just begun would also read as).
    assert.equal(await redis.command('PEXPIRE', mintKey('ada@example.com'), '30000'), ':1');
    for (const portal of portals) {
      const refused = await portal.mint('Ada@Example.com');
      assert.equal(refused.status, 429, refused.text);
      assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'rate_limited');
      // Told on Redis's clock, which goes on however slowly this runs: at most the 30 s set, and
      // at least what Redis still held after the answer (read later, so no more than then).
      const retryAfter = Number(refused.headers.get('retry-after'));
      const heldAfter = Number((await redis.command('PTTL', mintKey('ada@example.com'))).slice(1));
      assert.ok(
        retryAfter <= 30 && retryAfter >= Math.ceil(heldAfter / 1000),
        `Retry-After ${retryAfter} for a 30 s window with ${heldAfter} ms left after it`,
      );
    }
  });

  test('another user is not affected, and a second mount with its own prefix counts apart', async () => {
    assert.equal((await instance(0).mint('bea@example.com')).status, 200);
    assert.equal((await instance(1).mint('ada@example.com', '/second-portal')).status, 200);
    assert.equal(await redis.command('EXISTS', mintKey('ada@example.com', 'second-portal:')), ':1');
  });

  test('a paused redis-server (SIGSTOP) holds a mint up for at most limit.storeTimeoutMs: the mint goes on uncounted, the outage is logged once, and counting resumes', async () => {
    const portal = instance(0);
    const from = portal.logs.length;
    const mint = () => portal.mint('cy@example.com', '/short-timeout');
    redis.pause();
    try {
      assert.equal((await mint()).status, 200);
      assert.equal((await mint()).status, 200);
    } finally {
      redis.resume();
    }
    // The reason proves the mint went on when the bound elapsed, not when Redis answered.
    const [began, ...more] = outageBegan(portal, from);
    assert.deepEqual(more, []);
    assert.equal(
      began?.details?.reason,
      `no answer within limit.storeTimeoutMs (${SHORT_STORE_TIMEOUT_MS} ms)`,
    );
    assert.equal((await mint()).status, 200);
    assert.equal(outageEnded(portal, from).length, 1);
  });

  test('a killed redis-server: mints still succeed (refused as unavailable where passOnStoreError is false) and each instance logs the outage once; restarted, the limit holds again without restarting the portals', async () => {
    const marks = new Map(portals.map((portal) => [portal, portal.logs.length]));
    const from = (portal: PortalProcess) => marks.get(portal) ?? 0;
    await redis.kill();
    await alternate('dee@example.com', 12);
    const refused = await instance(0).mint('dee@example.com', '/fail-closed');
    assert.equal(refused.status, 503, refused.text);
    assert.equal(SessionErrorBodySchema.parse(refused.body).error.code, 'unavailable');
    for (const portal of portals) {
      // One line per outage per instance: that one, and no line per request besides it.
      const lines = portal.logs.slice(from(portal));
      const middlewareLines = lines.filter((line) => line.level !== 'info');
      assert.equal(outageBegan(portal, from(portal)).length, 1, JSON.stringify(lines));
      assert.deepEqual(middlewareLines, outageBegan(portal, from(portal)));
      // The README's error listener names the cause, each once however often it reconnects.
      const causes = lines
        .map((line) => line.message)
        .filter((message) => message.startsWith('redis: '));
      assert.ok(causes.length > 0, JSON.stringify(lines));
      assert.deepEqual(causes, [...new Set(causes)]);
    }

    await redis.restart();
    await untilCountingAgain(from);
    await alternate('eve@example.com', 10);
    for (const portal of portals) {
      assert.equal((await portal.mint('eve@example.com')).status, 429);
      assert.equal(outageBegan(portal, from(portal)).length, 1);
      assert.equal(outageEnded(portal, from(portal)).length, 1);
    }
  });

  test('a portal started while redis-server is down starts, mints uncounted, and counts once it is up', async () => {
    await redis.kill();
    const late = await startPortalProcess(watch, portalEnv);
    started.push(late);
    portals = [late];
    assert.equal((await late.mint('fay@example.com')).status, 200);
    assert.equal(outageBegan(late, 0).length, 1, JSON.stringify(late.logs));
    await redis.restart();
    await untilCountingAgain(() => 0);
    await alternate('gus@example.com', 10);
    assert.equal((await late.mint('gus@example.com')).status, 429);
  });
});

/**
 * A TCP server on loopback standing in for Redis, `greet` called with each connection, and a
 * portal process whose REDIS_URL points at it; `done` closes the server and its connections.
 */
async function portalOnFakeRedis(greet: (socket: Socket) => void) {
  const connections: Socket[] = [];
  const server = createServer((socket) => {
    connections.push(socket);
    socket.on('error', () => {});
    greet(socket);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  const portal = await startPortalProcess(watch, {
    ...portalEnv,
    REDIS_URL: `redis://127.0.0.1:${port}`,
  });
  started.push(portal);
  return {
    portal,
    /** Resolves once the server has had `count` connections. */
    async connections(count: number) {
      while (connections.length < count) await once(server, 'connection');
    },
    /** The causes the README's error listener logged. */
    causes: () =>
      portal.logs.map((line) => line.message).filter((message) => message.startsWith('redis: ')),
    done() {
      server.close();
      for (const socket of connections) socket.destroy();
    },
  };
}

test("a REDIS_URL that reaches something else than Redis: the README's error listener names each cause once, though node-redis meets two in turn on every reconnect", async () => {
  // Answers every connection as a web server would, and closes it.
  const notRedis = await portalOnFakeRedis((socket) =>
    socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'),
  );
  try {
    // Four connections: three reconnects, each of which meets both errors.
    await notRedis.connections(4);
    await notRedis.portal.mint('hal@example.com');
    const causes = notRedis.causes();
    assert.ok(causes.length >= 2, JSON.stringify(causes));
    assert.deepEqual(causes, [...new Set(causes)]);
  } finally {
    notRedis.done();
  }
});

test("a REDIS_URL that accepts and never answers (a proxy whose Redis is gone): the README's client names a socket timeout and connects again, and mints go on uncounted meanwhile", {
  timeout: 20_000,
}, async () => {
  const silent = await portalOnFakeRedis(() => {});
  try {
    assert.equal((await silent.portal.mint('ida@example.com')).status, 200);
    // The first connection ends at the README's socketTimeout, and the client tries again.
    await silent.connections(2);
    const causes = silent.causes();
    assert.ok(
      causes.some((cause) => /timeout/i.test(cause)),
      JSON.stringify(causes),
    );
  } finally {
    silent.done();
  }
});
