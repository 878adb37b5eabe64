// FORM_EMBED_REDIS_URL: the demo keeps its per-user limits in Redis, as several portal
// instances would (see the express README's "Several portal instances: Redis").
import type { Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';

export interface LimitStore {
  store: Store;
  /** The Redis URL without its password, for the start banner. */
  shownUrl: string;
  close(): Promise<void>;
}

/** Connects to `url` and wraps it in rate-limit-redis's store; rejects when Redis cannot be reached. */
export async function redisLimitStore(url: string): Promise<LimitStore> {
  const redis = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 1_000,
      reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000),
    },
  });
  redis.on('error', () => {}); // the middleware logs an outage once
  await redis.connect();
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return {
    store: new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) }),
    shownUrl: shown.href,
    close: async () => redis.destroy(),
  };
}
