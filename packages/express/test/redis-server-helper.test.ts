import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { describe, test } from 'node:test';
import { freePort } from '../../../scripts/ports.mjs';
import { startRedis } from './helpers/redis-server.js';

const helper = new URL('./helpers/redis-server.ts', import.meta.url).href;

/**
 * True once nothing accepts a connection on `port`: refused at once, or, when a dying server
 * still accepts it, closed by that server's end (within about 2 s, a deadline for the failure).
 */
function closed(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const deadline = setTimeout(() => {
      socket.destroy();
      resolve(false);
    }, 2_000);
    const answer = () => {
      clearTimeout(deadline);
      socket.destroy();
      resolve(true);
    };
    socket.once('error', answer).once('close', answer);
  });
}

/** Runs `script` in a child Node process; resolves with the port it printed and how it ended. */
function runDying(script: string) {
  return new Promise<{ port: number; code: number | null; signal: string | null }>((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '-e', script],
      (_error, stdout) =>
        resolve({ port: Number(stdout.trim()), code: child.exitCode, signal: child.signalCode }),
    );
  });
}

/** Passes when nothing answers on `port`; otherwise shuts the left-behind server down, and fails. */
async function assertGone(port: number) {
  assert.ok(port > 0, 'the run printed its redis-server port');
  if (await closed(port)) return;
  // Left behind: stop it here rather than leave it to outlive this run too.
  connect(port, '127.0.0.1')
    .on('error', () => {})
    .end('SHUTDOWN NOSAVE\r\n');
  assert.fail(`a redis-server still answers on ${port}`);
}

/** A port something else listens on (loopback, where redis-server binds), until `close`. */
async function occupiedPort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  return { port, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the tests’ redis-server', () => {
  test('a port taken between choosing it and starting redis-server on it: it starts on another one', async () => {
    const taken = await occupiedPort();
    const chosen: number[] = [];
    try {
      const redis = await startRedis({
        // The first choice is the port taken meanwhile; the next one is free.
        choosePort: async () => {
          const port = chosen.length === 0 ? taken.port : await freePort();
          chosen.push(port);
          return port;
        },
      });
      try {
        assert.equal(chosen.length, 2, 'a second port was chosen once the first was in use');
        assert.equal(redis.port, chosen[1]);
        assert.equal(await redis.command('PING'), '+PONG');
      } finally {
        await redis.kill();
      }
    } finally {
      await taken.close();
    }
  });

  test('every port chosen in use: it gives up after a few attempts, naming the ports', async () => {
    const taken = await occupiedPort();
    let chosen = 0;
    try {
      // Started after all, it is stopped here: a failing test does not leave it running.
      const outcome = await startRedis({
        choosePort: async () => {
          chosen += 1;
          return taken.port;
        },
      }).then(
        async (redis) => {
          await redis.kill();
          return `started on port ${redis.port}`;
        },
        (error: Error) => error.message,
      );
      assert.match(outcome, /in use/);
      assert.ok(outcome.includes(`${taken.port}`), outcome);
      assert.ok(chosen > 1 && chosen <= 5, `${chosen} attempts`);
    } finally {
      await taken.close();
    }
  });

  test('its port is below the ephemeral range that every listen(0) and outgoing connection takes theirs from: after kill(), no other process can be handed it before restart() starts on it again', async () => {
    // Where there is no such file, the range is 49152 up, as the helper takes it.
    const range = await readFile('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').catch(
      () => '49152 65535',
    );
    const [low] = range.trim().split(/\s+/).map(Number);
    const redis = await startRedis();
    try {
      assert.ok(redis.port < Number(low), `port ${redis.port}, ephemeral range ${range.trim()}`);
      await redis.kill();
      await redis.restart();
      assert.equal(await redis.command('PING'), '+PONG');
    } finally {
      await redis.kill();
    }
  });

  test('a run that dies of an uncaught error takes its redis-server along', async () => {
    const { port, code } = await runDying(`import { startRedis } from '${helper}';
      const redis = await startRedis();
      console.log(redis.port);
      throw new Error('the run dies');`);
    assert.notEqual(code, 0, 'the run must have died');
    await assertGone(port);
  });

  test('a run killed by a signal, which no exit handler sees, takes its redis-server along', async () => {
    const { port, signal } = await runDying(`import { startRedis } from '${helper}';
      const redis = await startRedis();
      process.stdout.write(redis.port + '\\n', () => process.kill(process.pid, 'SIGKILL'));`);
    assert.equal(signal, 'SIGKILL', 'the run must have been killed');
    await assertGone(port);
  });
});
