import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { spawnTied } from './tied-spawn.js';

/** A server the tests start (redis-server, nginx, HAProxy), and how its log tells its start. */
export interface ServerCommand {
  /** Its name in errors. */
  name: string;
  binary: string;
  args: string[];
  /** What to do when `binary` cannot be run. */
  missing: string;
  /** Where it writes the lines below. */
  output: 'stdout' | 'stderr';
  /** A line it writes once it listens. */
  ready: RegExp;
  /** A line it writes when its port is taken. */
  inUse: RegExp;
}

const startDeadlineMs = 10_000;

/**
 * Starts `server` on `port`, tied to the test run (it ends with it), and resolves once it
 * listens; undefined when something else listens on that port (it is stopped then). Fails with
 * its last lines when it exits first, and after 10 s.
 */
export async function launchServer(
  server: ServerCommand,
  port: number,
): Promise<ChildProcess | undefined> {
  const stdio: ['ignore', 'pipe' | 'ignore', 'pipe' | 'ignore'] =
    server.output === 'stdout' ? ['ignore', 'pipe', 'ignore'] : ['ignore', 'ignore', 'pipe'];
  const child = spawnTied(server.binary, server.args, stdio);
  // Its log is read to the end and dropped, so its pipe never fills; the last lines are kept
  // for the error when it exits before it listens.
  const lastLines: string[] = [];
  const outcome = new Promise<'ready' | 'in use'>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`${server.binary} could not start (${error.message}): ${server.missing}`)),
    );
    createInterface({ input: child[server.output] as NodeJS.ReadableStream }).on('line', (line) => {
      if (server.ready.test(line)) resolve('ready');
      if (server.inUse.test(line)) resolve('in use');
      lastLines.push(line);
      if (lastLines.length > 5) lastLines.shift();
    });
    // 'close' comes after 'exit', once its output has been read to the end.
    child.once('close', (code, signal) => {
      const said =
        lastLines.length > 0 ? `:\n${lastLines.join('\n')}` : `, saying nothing: ${server.missing}`;
      reject(
        new Error(
          `${server.name} on port ${port} exited (${signal ?? `code ${code}`}) before it listened${said}`,
        ),
      );
    });
  });
  // After a start that succeeded, this settles when the server is stopped: not unhandled then.
  outcome.catch(() => {});
  // A deadline for a failure, never waited out when the server starts.
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    deadline = setTimeout(
      () =>
        reject(
          new Error(`${server.name} on port ${port} did not listen within ${startDeadlineMs} ms`),
        ),
      startDeadlineMs,
    );
  });
  try {
    if ((await Promise.race([outcome, late])) === 'ready') return child;
    await stopServer(child);
    return undefined;
  } catch (error) {
    await stopServer(child);
    throw error;
  } finally {
    clearTimeout(deadline);
  }
}

/** Kills it (SIGKILL) and waits until it has exited. */
export async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
