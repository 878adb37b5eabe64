// Ports for the servers tests start themselves (redis-server, proxies, the sandbox's CLI).
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';

/** A loopback port nothing listened on a moment ago (closed again: anything may take it). */
export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A port the kernel hands out to nobody by itself: below the range that every listen(0) and every
 * outgoing connection takes its port from (Linux's ip_local_port_range; 49152 up elsewhere), and
 * above 10000, where servers of fixed ports tend to sit. A port found free and let go in that
 * range could be given to any process before the server that is to bind it does (a restarted
 * redis-server, the sandbox's CLI with --forms-port); this one only to a process that names it.
 */
export async function portBelowEphemeralRange() {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const low = Number(range.trim().split(/\s+/)[0]) || 49152;
  // A kernel whose range reaches this low leaves no such port: a free one of its range, then.
  if (low <= 11_000) return freePort();
  return 10_000 + Math.floor(Math.random() * (low - 10_000));
}
