/**
 * One portal instance in a process of its own, as the README sets it up: `formEmbedSessions`
 * with the per-user limits in Redis (rate-limit-redis over node-redis), mounted twice:
 * `/form-sessions` with the default prefix and `/second-portal` with `limit.prefix`
 * `second-portal:`, `/fail-closed` with `limit.passOnStoreError` false, and `/short-timeout`, all
 * on one store. The user is the `x-portal-user` header (the test's stand-in for a session).
 * `limit.storeTimeoutMs` is `PORTAL_STORE_TIMEOUT_MS`, and `PORTAL_SHORT_STORE_TIMEOUT_MS` on
 * `/short-timeout`. Its Redis client is the README's, on `REDIS_URL`. Prints `{url}` as its first
 * line, then one JSON line per log line. Exits when its stdin closes.
 */
import type { AddressInfo } from 'node:net';
import { formEmbedSessions, type Logger } from '@form-embed/express';
import express from 'express';
import { RedisStore } from 'rate-limit-redis';
import { createClient } from 'redis';
import { keepIdleConnections } from './idle-connections.js';

const {
  PORTAL_BASE_URL: baseUrl,
  PORTAL_API_KEY: apiKey,
  PORTAL_STORE_TIMEOUT_MS: storeTimeoutMs,
  PORTAL_SHORT_STORE_TIMEOUT_MS: shortStoreTimeoutMs,
} = process.env;
if (!baseUrl || !apiKey || !process.env.REDIS_URL || !storeTimeoutMs || !shortStoreTimeoutMs) {
  throw new Error('redis-portal needs REDIS_URL and its four PORTAL_ variables');
}

// The README's own client, line for line (redis-readme-client.test.ts): its console.error
// lines, the cause of each Redis failure, are log lines of the portal's, `info` and `redis: …`.
console.error = (...args: unknown[]) =>
  console.log(JSON.stringify({ level: 'info', message: args.join(' ') }));
const redis = createClient({
  url: process.env.REDIS_URL,
  // Fail at once while disconnected rather than queueing commands until Redis is back.
  disableOfflineQueue: true,
  // The socket timeout ends a connection on which nothing passes for 3 s, as one to a proxy whose
  // Redis is gone never finishes connecting (node-redis would wait on it for ever); a PING a
  // second keeps a quiet, healthy one open.
  pingInterval: 1_000,
  socket: {
    connectTimeout: 1_000,
    socketTimeout: 3_000,
    reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000), // keep trying, at most every 2 s
  },
});
// Without a listener node-redis throws. The middleware logs an outage as "offline" only: log
// the cause (a wrong password, an unknown host) yourself, once each per outage: a reconnect can
// meet two errors in turn (a port that is not Redis's: an unknown reply, then the socket closed).
const redisErrors = new Set<string>();
redis.on('error', (error) => {
  if (redisErrors.has(error.message)) return;
  redisErrors.add(error.message);
  console.error('redis:', error.message);
});
redis.on('ready', () => redisErrors.clear());
// Not awaited: with Redis down, connect() waits for it, and the portal would not start.
redis.connect().catch(() => {});
// For the tests: the connection (a reconnection too) has finished its handshake.
redis.on('ready', () => console.log(JSON.stringify({ level: 'info', message: 'redis ready' })));
const store = new RedisStore({ sendCommand: (...args: string[]) => redis.sendCommand(args) });

const logger: Logger = {
  warn: (message, details) => console.log(JSON.stringify({ level: 'warn', message, details })),
  error: (message, details) => console.log(JSON.stringify({ level: 'error', message, details })),
};
const options = {
  apiKey,
  baseUrl,
  logger,
  resolveUser: (req: express.Request) => {
    const user = req.get('x-portal-user');
    return user ? { userIdentifier: user } : undefined;
  },
};

const app = express();
// The shared count is what the tests check, not the default (30): 10 reaches it sooner.
const limit = { store, storeTimeoutMs: Number(storeTimeoutMs), mints: 10 };
app.use(
  '/form-sessions',
  formEmbedSessions({ ...options, limit: { ...limit, prefix: 'portal:' } }),
);
app.use(
  '/second-portal',
  formEmbedSessions({ ...options, limit: { ...limit, prefix: 'second-portal:' } }),
);
app.use(
  '/fail-closed',
  formEmbedSessions({
    ...options,
    limit: { ...limit, prefix: 'fail-closed:', passOnStoreError: false },
  }),
);
app.use(
  '/short-timeout',
  formEmbedSessions({
    ...options,
    limit: { ...limit, prefix: 'short-timeout:', storeTimeoutMs: Number(shortStoreTimeoutMs) },
  }),
);
const server = app.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  console.log(JSON.stringify({ url: `http://127.0.0.1:${port}` }));
});

keepIdleConnections(server);

process.stdin.resume();
process.stdin.on('end', () => {
  server.closeAllConnections();
  server.close();
  redis.destroy();
  process.exit(0);
});
