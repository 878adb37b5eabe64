import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Project } from './project.js';

export interface Portal {
  /** Where a browser opens the portal: `localhost`, another site than the embed origins. */
  url: string;
  /** The same server for Node's fetch, which does not resolve `localhost` names here. */
  apiUrl: string;
  formsOrigin: string;
  /** The sandbox's origin (its API and, with SANDBOX_CONTROL set, its control API). */
  sandboxUrl: string;
  stop(): Promise<void>;
}

/**
 * Starts the Express 5 setup's built portal (which starts the sandbox by its CLI), serving
 * `staticDir` when given, with `env` added to its environment, on the Node binary `node` (this
 * one unless given). Resolves once it prints where it listens.
 */
export async function startPortal(
  express5: Project,
  staticDir?: string,
  env: Record<string, string> = {},
  node = process.execPath,
): Promise<Portal> {
  const portal = await startServer<{ port: number; formsOrigin: string; sandboxUrl: string }>(
    express5,
    node,
    ['dist/portal.js'],
    { STATIC_DIR: staticDir ?? '', ...env },
  );
  const { port, formsOrigin, sandboxUrl } = portal.ready;
  return {
    url: `http://localhost:${port}`,
    apiUrl: `http://127.0.0.1:${port}`,
    formsOrigin,
    sandboxUrl,
    stop: portal.stop,
  };
}

/** A process of a setup that prints one JSON line once it serves, and stops on SIGTERM. */
export interface Server<Ready> {
  /** The JSON line it printed. */
  ready: Ready;
  stop(): Promise<void>;
}

/**
 * Starts `command` in the setup's folder, with `env` added to its environment. Resolves once it
 * prints its first line, read as JSON.
 */
export async function startServer<Ready>(
  setup: Project,
  command: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Server<Ready>> {
  const child = spawn(command, args, {
    cwd: setup.dir,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit').then(() => {
    throw new Error(
      `setup ${setup.name}: \`${command} ${args.join(' ')}\` exited before listening:\n${stderr}`,
    );
  });
  const firstLine = once(createInterface({ input: child.stdout }), 'line');
  const [line] = (await Promise.race([firstLine, exited])) as [string];
  return { ready: JSON.parse(line) as Ready, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
