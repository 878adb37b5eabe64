import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { fixtureIds } from '@form-embed/sandbox';
import type { Answer } from './harness.js';
import type { LogLine, SecretWatch } from './secret-watch.js';

/** A portal instance (`redis-portal.ts`) in a Node process of its own. */
export interface PortalProcess {
  url: string;
  /** Its log lines so far, in order. */
  logs: LogLine[];
  /** The first log line from index `from` on whose message matches, once it is logged. */
  logged(pattern: RegExp, from: number): Promise<LogLine>;
  /** A mint of the open form for `user` through the mount at `mount`. */
  mint(user: string, mount?: string): Promise<Answer>;
  stop(): Promise<void>;
}

const script = fileURLToPath(new URL('./redis-portal.ts', import.meta.url));

const START_DEADLINE_MS = 20_000;

/** Starts `redis-portal.ts` with `env`; every answer and log line goes through `watch`. */
export async function startPortalProcess(
  watch: SecretWatch,
  env: Record<string, string>,
): Promise<PortalProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@form-embed/source', '--import', 'tsx', script],
    {
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const logs: LogLine[] = [];
  const logEvents = new EventEmitter();
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`redis-portal exited (${code}) before it listened`)),
    );
    // A deadline for a failure, never waited out when the portal starts.
    const deadline = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`redis-portal did not listen within ${START_DEADLINE_MS} ms`));
    }, START_DEADLINE_MS);
    lines.once('line', () => clearTimeout(deadline));
    lines.on('line', (line) => {
      const parsed = JSON.parse(line) as { url?: string } & LogLine;
      if (parsed.url !== undefined) return resolve(parsed.url);
      watch.recordLogLine(line);
      logs.push(parsed);
      logEvents.emit('line');
    });
  });
  return {
    url,
    logs,
    logged: (pattern, from) =>
      new Promise((resolve) => {
        const look = () => {
          const found = logs.slice(from).find((line) => pattern.test(line.message));
          if (!found) return;
          logEvents.off('line', look);
          resolve(found);
        };
        logEvents.on('line', look);
        look();
      }),
    mint: async (user, mount = '/form-sessions') => {
      const response = await fetch(`${url}${mount}/forms/${fixtureIds.forms.open}/session`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'sec-fetch-site': 'same-origin',
          'x-portal-user': user,
        },
        body: '{}',
      });
      const text = await response.text();
      watch.record(response, text);
      // Its upstream is in the portal's process: the handle is known from the embedUrl.
      watch.collectHandles(text);
      return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
    },
    stop: () => stop(child),
  };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin?.end();
  await exited;
}
