import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { portBelowEphemeralRange } from '../../../../scripts/ports.mjs';
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
