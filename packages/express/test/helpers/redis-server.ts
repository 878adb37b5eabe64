import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { spawnTied } from './tied-spawn.js';

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
const startDeadlineMs = 10_000;

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
 * When something else listens on the port chosen (redis-server says so, and exits), it starts
 * again on another port, a few times.
 */
export async function startRedis({
  choosePort = portBelowEphemeralRange,
}: StartRedisOptions = {}): Promise<RedisServer> {
  const inUse: number[] = [];
  for (let attempt = 1; attempt <= portAttempts; attempt++) {
    const port = await choosePort();
    try {
      return started(port, await launch(port));
    } catch (error) {
      if (!(error instanceof PortInUse)) throw error;
      inUse.push(port);
    }
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
    kill: () => stop(child),
    restart: async () => {
      await stop(child);
      child = await launch(port);
    },
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
    command: (...args) => send(port, args),
  };
}

/** redis-server said that something else listens on its port, and exited. */
class PortInUse extends Error {
  constructor(port: number) {
    super(`redis-server could not listen on port ${port}: it is in use`);
  }
}

async function launch(port: number): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const stdio: ['ignore', 'pipe', 'ignore'] = ['ignore', 'pipe', 'ignore'];
  const child = spawnTied(binary, args, stdio);
  const failed = once(child, 'error').then(([error]) => {
    throw new Error(
      `${binary} could not start (${(error as Error).message}): install redis-server or set REDIS_SERVER`,
    );
  });
  // It says when it listens, or why it cannot; the rest of its log is read and dropped, so its
  // pipe never fills. The last lines are kept for the error when it exits before it is ready.
  const lastLines: string[] = [];
  let portInUse = false;
  const ready = new Promise<void>((resolve) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (/Ready to accept connections/.test(line)) resolve();
      if (/Address already in use/.test(line)) portInUse = true;
      lastLines.push(line);
      if (lastLines.length > 5) lastLines.shift();
    });
  });
  // 'close' comes after 'exit', once its output has been read to the end.
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('close', (code, signal) => {
      const said =
        lastLines.length > 0
          ? `:\n${lastLines.join('\n')}`
          : ', saying nothing: install redis-server or set REDIS_SERVER';
      const how = signal ?? `code ${code}`;
      reject(
        portInUse
          ? new PortInUse(port)
          : new Error(`${binary} on port ${port} exited (${how}) before it was ready${said}`),
      );
    });
  });
  // After a start that succeeded, this settles when the server is stopped: not unhandled then.
  exited.catch(() => {});
  // A deadline for a failure, never waited out when the server starts.
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-server on port ${port} was not ready within ${startDeadlineMs} ms`));
    }, startDeadlineMs);
  });
  try {
    await Promise.race([ready, failed, exited, late]);
  } finally {
    clearTimeout(deadline);
  }
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
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
