import type { Server } from 'node:http';

/**
 * Keeps idle keep-alive connections open for a minute, as a hosted service or a portal behind a
 * load balancer does. Node's own 5 s races the tests' client (undici, whose timers are coarse):
 * on a loaded machine a request sent on a connection the server is just dropping fails
 * ECONNRESET.
 */
export function keepIdleConnections(server: Server): void {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}
