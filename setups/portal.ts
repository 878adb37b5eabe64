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
 * `staticDir` when given, with `env` added to its environment. Resolves once it prints where it
 * listens.
 */
export async function startPortal(
  express5: Project,
  staticDir?: string,
  env: Record<string, string> = {},
): Promise<Portal> {
  const child = spawn(process.execPath, ['dist/portal.js'], {
    cwd: express5.dir,
    env: { ...process.env, STATIC_DIR: staticDir ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  const exited = once(child, 'exit').then(() => {
    throw new Error(`setup ${express5.name}: the portal exited before listening:\n${stderr}`);
  });
  const firstLine = once(createInterface({ input: child.stdout }), 'line');
  const [line] = (await Promise.race([firstLine, exited])) as [string];
  const { port, formsOrigin, sandboxUrl } = JSON.parse(line) as {
    port: number;
    formsOrigin: string;
    sandboxUrl: string;
  };
  return {
    url: `http://localhost:${port}`,
    apiUrl: `http://127.0.0.1:${port}`,
    formsOrigin,
    sandboxUrl,
    stop: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
