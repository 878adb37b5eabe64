import { after, before } from 'node:test';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import { createClient } from 'redis';
import { type RedisServer, startRedis } from './redis-server.js';
import type { SecretWatch } from './secret-watch.js';

export interface SandboxAndRedis {
  sandbox: Sandbox;
  redis: RedisServer;
  /** node-redis on `redis`, with no offline queue: a command to a Redis that is down fails. */
  client: ReturnType<typeof createClient>;
}

/**
 * For one test file: a sandbox, a real `redis-server` and a client of it, started before its
 * tests and stopped after them; then no API key may be in any line `watch` saw.
 */
export function sandboxAndRedis(watch: SecretWatch): SandboxAndRedis {
  const setup = {} as SandboxAndRedis;
  before(async () => {
    [setup.sandbox, setup.redis] = await Promise.all([startSandbox(), startRedis()]);
    setup.client = createClient({ url: setup.redis.url, disableOfflineQueue: true });
    setup.client.on('error', () => {});
    await setup.client.connect();
  });
  after(async () => {
    setup.client?.destroy();
    await setup.redis?.kill();
    await setup.sandbox?.close();
    await watch.assertNoSecret([setup.sandbox.apiKey]);
  });
  return setup;
}
