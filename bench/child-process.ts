import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export interface Child<Info> {
  info: Info;
  stop(): Promise<void>;
}

const startTimeoutMs = 30_000;
const stopTimeoutMs = 5_000;

/**
 * Runs a bench server script in its own Node process (same loader flags as this one) and
 * waits for the one JSON line it prints when listening. The child also exits when its stdin
 * closes, so it cannot outlive this process even if this one is killed.
 */
export async function startChild<Info>(
  script: URL,
  env: Record<string, string> = {},
): Promise<Child<Info>> {
  const child = spawn(process.execPath, [...process.execArgv, fileURLToPath(script)], {
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const stop = () => stopChild(child);
  try {
    const info = await firstLine<Info>(child, script);
    return { info, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function firstLine<Info>(child: ChildProcess, script: URL): Promise<Info> {
  return new Promise((resolve, reject) => {
    const name = fileURLToPath(script).split('/').pop();
    const timer = setTimeout(
      () => reject(new Error(`${name} did not start in time`)),
      startTimeoutMs,
    );
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
    lines.once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line) as Info);
      } catch {
        reject(new Error(`${name} printed something other than its JSON line`));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}) before it was ready`));
    });
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), stopTimeoutMs);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.stdin?.end();
    child.kill('SIGTERM');
  });
}

/** In a child: runs `close` once on SIGTERM, SIGINT or the parent going away, then exits. */
export function exitWithParent(close: () => Promise<void>): void {
  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    close().finally(() => process.exit(0));
  };
  process.on('SIGTERM', shutdown);
  process.on('SIGINT', shutdown);
  process.stdin.on('end', shutdown);
  process.stdin.on('error', shutdown);
  process.stdin.resume();
}
