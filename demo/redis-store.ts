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
  let connected = false;
  const redis = createClient({
    url,
    disableOfflineQueue: true,
    socket: {
      connectTimeout: 1_000,
      // Until the first connection, an error ends connect() (the demo says so and exits); after
      // it, Redis going away is an outage the middleware rides out while this reconnects.
      reconnectStrategy: (retries, cause) =>
        connected ? Math.min(100 * 2 ** retries, 2_000) : cause,
    },
  });
  // The middleware logs an outage as "offline" only: the cause is logged here, once each.
  let lastError = '';
  redis.on('error', (error: Error) => {
    if (error.message === lastError) return;
    lastError = error.message;
    console.error(`demo: redis: ${lastError}`);
  });
  redis.on('ready', () => {
    lastError = '';
  });
  await redis.connect();
  connected = true;
  const shown = new URL(url);
  if (shown.password) shown.password = '***';
  return {
    store: new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) }),
    shownUrl: shown.href,
    close: async () => redis.destroy(),
  };
}
