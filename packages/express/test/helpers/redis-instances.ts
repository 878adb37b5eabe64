import { after, before } from 'node:test';
import type { LimitOptions } from '@form-embed/express';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import type { Express } from 'express';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { type MountedMiddleware, mountMiddleware } from './harness.js';
import { type RedisServer, startRedis } from './redis-server.js';
import { SecretWatch } from './secret-watch.js';

/**
 * Portal instances behind one load balancer, one Redis, for the tests of a file: a sandbox and a
 * redis-server start before them and stop after them. Each started instance has a Redis client
 * and a RedisStore of its own, as a process of its own would (redis-store.test.ts runs two such
 * processes), and all of them the limit.prefix `prefix`. At the end, no answer or log line
 * showed a secret.
 */
export function instancesOnOneRedis(prefix: string) {
  const watch = new SecretWatch();
  let sandbox: Sandbox;
  let redis: RedisServer;
  const clients: { destroy(): void }[] = [];
  const atEnd: (() => Promise<void>)[] = [];
  before(async () => {
    [sandbox, redis] = await Promise.all([startSandbox(), startRedis()]);
  });
  after(async () => {
    for (const stop of atEnd.reverse()) await stop();
    for (const client of clients) client.destroy();
    await redis?.kill();
    await sandbox?.close();
    await watch.assertNoSecret([sandbox.apiKey]);
  });
  return {
    watch,
    /** The sandbox, once started. */
    sandbox: () => sandbox,
    /**
     * An instance, its limit options and `fetch` as given; `configureApp` sets up its Express app
     * before the Router is mounted.
     */
    async start(
      { limit, fetch }: { limit?: Partial<LimitOptions>; fetch?: typeof globalThis.fetch } = {},
      configureApp?: (app: Express) => void,
    ): Promise<MountedMiddleware> {
      const client = createClient({ url: redis.url, disableOfflineQueue: true });
      client.on('error', () => {});
      clients.push(client);
      await client.connect();
      return mountMiddleware(
        watch,
        {
          apiKey: sandbox.apiKey,
          baseUrl: sandbox.baseUrl,
          fetch,
          limit: {
            store: new RedisStore({ sendCommand: (...args: string[]) => client.sendCommand(args) }),
            prefix,
            // A loaded machine must not turn a slow answer into an uncounted mint.
            storeTimeoutMs: 10_000,
            // The shared count is what these tests check, not the default: 10 reaches it sooner.
            mints: 10,
            ...limit,
          },
        },
        configureApp,
      );
    },
    /** Stops `stop` at the end, before the instances' clients, in the reverse of this order. */
    stopAtEnd(stop: () => Promise<void>) {
      atEnd.push(stop);
    },
  };
}
