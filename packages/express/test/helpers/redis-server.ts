import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { launchServer, stopServer } from './server-process.js';

/** A real `redis-server` of this test run: its own free port, no persistence. */
export interface RedisServer {
  url: string;
  port: number;
  /** Kills it (SIGKILL, by its own pid) and waits until it has exited. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty, and waits until it answers PING. */
  restart(): Promise<void>;
  /** SIGSTOP: connections stay open, nothing is answered. */
  pause(): void;
  /** SIGCONT. */
  resume(): void;
  /** Sends one command and resolves with its reply, a simple or a bulk one (not an array). */
  command(...args: string[]): Promise<string>;
}

const binary = process.env.REDIS_SERVER ?? 'redis-server';

/** A loopback port nothing listened on a moment ago (closed again: anything may take it). */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A port the kernel hands out to nobody by itself: below the range that every listen(0) and every
 * outgoing connection takes its port from (Linux's ip_local_port_range; 49152 up elsewhere), and
 * above 10000, where servers of fixed ports tend to sit. restart() binds the port of a killed
 * redis-server again: one freed in that range could be given meanwhile to any process's listen(0)
 * (a portal started while Redis is down, a browser test's server), and restart() would fail. Only
 * a process that names this very port can still take it; one that already does, startRedis tries
 * another port for.
 */
export async function portBelowEphemeralRange(): Promise<number> {
  const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(() => '');
  const low = Number(range.trim().split(/\s+/)[0]) || 49152;
  // A kernel whose range reaches this low leaves no such port: a free one of its range, then.
  if (low <= 11_000) return freePort();
  return 10_000 + Math.floor(Math.random() * (low - 10_000));
}

export interface StartRedisOptions {
  /** Where each attempt's port comes from; `portBelowEphemeralRange` by default. */
  choosePort?: () => Promise<number>;
}

/** How many ports `startRedis` tries when something listens on the one it chose. */
const portAttempts = 5;

/**
 * Starts `redis-server --port <port> --bind 127.0.0.1 --save '' --appendonly no`, ready to answer.
 * When something else listens on the port chosen (redis-server says so), it starts
 * again on another port, a few times.
 */
export async function startRedis({
  choosePort = portBelowEphemeralRange,
}: StartRedisOptions = {}): Promise<RedisServer> {
  const inUse: number[] = [];
  for (let attempt = 1; attempt <= portAttempts; attempt++) {
    const port = await choosePort();
    const child = await launch(port);
    if (child) return started(port, child);
    inUse.push(port);
  }
  throw new Error(
    `redis-server could not start: each port it was given was in use (${inUse.join(', ')}), ${portAttempts} attempts`,
  );
}

function started(port: number, first: ChildProcess): RedisServer {
  let child = first;
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    kill: () => stopServer(child),
    restart: async () => {
      await stopServer(child);
      const again = await launch(port);
      if (!again)
        throw new Error(`redis-server could not listen on port ${port} again: it is in use`);
      child = again;
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    command: (...args) => send(port, args),
  };
}

/** redis-server on `port`, ready to answer; undefined when something else listens there. */
function launch(port: number): Promise<ChildProcess | undefined> {
  return launchServer(
    {
      name: 'redis-server',
      binary,
      args: ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      missing: 'install redis-server or set REDIS_SERVER',
      output: 'stdout',
      ready: /Ready to accept connections/,
      inUse: /Address already in use/,
    },
    port,
  );
}

/** One command over a fresh connection; resolves with the raw reply, without its last CRLF. */
function send(port: number, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      reply += chunk;
      if (isComplete(reply)) {
        socket.destroy();
        resolve(reply.trimEnd());
      }
    });
    const encoded = args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('');
    socket.write(`*${args.length}\r\n${encoded}`);
  });
}

/** A simple reply (+, -, :) ends at its first CRLF; a bulk reply ($) is read to its length. */
function isComplete(reply: string): boolean {
  if (!reply.endsWith('\r\n')) return false;
  if (!reply.startsWith('$')) return true;
  const headerEnd = reply.indexOf('\r\n');
  const length = Number(reply.slice(1, headerEnd));
  return length < 0 || Buffer.byteLength(reply) >= headerEnd + 2 + length + 2;
}
