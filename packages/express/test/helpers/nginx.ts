import assert from 'node:assert/strict';
import { type ChildProcess, execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { freePort } from './redis-server.js';
import { spawnTied } from './tied-spawn.js';

/** A real nginx of this test run, on a free loopback port, ending TLS with its own certificate. */
export interface Nginx {
  port: number;
  /** The certificate it serves (for `localhost` and 127.0.0.1), for a client to trust. */
  certificate: string;
  stop(): Promise<void>;
}

/** What goes in nginx's `http` block, given its port and its certificate's and key's paths. */
export type HttpBlock = (listen: { port: number; certificate: string; key: string }) => string;

const readme = new URL('../../README.md', import.meta.url);

/**
 * The README's one ```nginx block (Behind nginx) as a partner copies it, but for its two upstream
 * addresses (`upstreams`: the one, twice, when one is given), its port and its certificate.
 */
export async function readmeNginxBlock(upstreams: string[]): Promise<HttpBlock> {
  const text = await readFile(readme, 'utf8');
  const block = /\n```nginx\n([\s\S]*?)\n```\n/.exec(text)?.[1];
  assert.ok(block, 'the README has a ```nginx block');
  const [first, second = first] = upstreams;
  return ({ port, certificate, key }) =>
    [
      ['server 10.0.0.11:3000;', `server ${first};`],
      ['server 10.0.0.12:3000;', `server ${second};`],
      ['listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`],
      ['/etc/ssl/portal.example.com.pem', certificate],
      ['/etc/ssl/portal.example.com.key', key],
    ].reduce((config, [from, to]) => {
      assert.ok(config.includes(from as string), `the README's nginx block has ${from}`);
      return config.replaceAll(from as string, to as string);
    }, block);
}

// Debian installs it in /usr/sbin, on the PATH of root alone.
const binary = process.env.NGINX ?? (existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx');
const startDeadlineMs = 10_000;
const portAttempts = 5;

/**
 * Starts nginx with `http` as its `http` block, in a folder of its own (its pid, temp files, the
 * certificate): one process (`master_process off`), so that it ends with the run. Its port is
 * free when chosen; when something takes it before nginx binds it, it starts on another.
 */
export async function startNginx(http: HttpBlock): Promise<Nginx> {
  const dir = await mkdtemp(join(tmpdir(), 'form-embed-nginx-'));
  try {
    return await startIn(dir, http);
  } catch (error) {
    // Not left behind by a run that goes on: it holds the certificate's private key.
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function startIn(dir: string, http: HttpBlock): Promise<Nginx> {
  // Read by nginx as the user it runs as.
  await chmod(dir, 0o755);
  const paths = { certificate: join(dir, 'portal.pem'), key: join(dir, 'portal.key') };
  await selfSignedCertificate(paths.certificate, paths.key);
  const certificate = await readFile(paths.certificate, 'utf8');
  for (let attempt = 1; attempt <= portAttempts; attempt++) {
    const port = await freePort();
    const config = join(dir, 'nginx.conf');
    await writeFile(config, nginxConf(dir, http({ port, ...paths })));
    const child = await launch(dir, config, port);
    if (child) {
      return {
        port,
        certificate,
        stop: async () => {
          await stop(child);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
  }
  throw new Error(
    `nginx could not start: each port it was given was in use, ${portAttempts} attempts`,
  );
}

function nginxConf(dir: string, http: string): string {
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
    (kind) => `  ${kind}_temp_path ${join(dir, kind)};`,
  );
  return [
    'daemon off;',
    'master_process off;',
    `pid ${join(dir, 'nginx.pid')};`,
    // Its notices say when it listens (after binding its port), or why it cannot.
    'error_log stderr notice;',
    'events { worker_connections 256; }',
    'http {',
    '  access_log off;',
    ...temp,
    http,
    '}',
    '',
  ].join('\n');
}

/** An EC certificate for one day, for `localhost` and 127.0.0.1, made by openssl. */
async function selfSignedCertificate(certificate: string, key: string): Promise<void> {
  await promisify(execFile)('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=localhost',
    '-addext',
    'subjectAltName=DNS:localhost,IP:127.0.0.1',
    '-keyout',
    key,
    '-out',
    certificate,
  ]);
}

/** nginx listening on `port`; undefined when something else took that port first. */
async function launch(
  dir: string,
  config: string,
  port: number,
): Promise<ChildProcess | undefined> {
  const child = spawnTied(
    binary,
    ['-p', dir, '-c', config, '-e', 'stderr'],
    ['ignore', 'ignore', 'pipe'],
  );
  const lastLines: string[] = [];
  const outcome = new Promise<'ready' | 'in use'>((resolve, reject) => {
    child.once('error', (error) =>
      reject(new Error(`${binary} could not start (${error.message}): install nginx or set NGINX`)),
    );
    createInterface({ input: child.stderr as NodeJS.ReadableStream }).on('line', (line) => {
      if (/\bnginx\/\d/.test(line)) resolve('ready');
      if (/Address already in use/.test(line)) resolve('in use');
      lastLines.push(line);
      if (lastLines.length > 5) lastLines.shift();
    });
    child.once('close', (code, signal) =>
      reject(
        new Error(
          `nginx on port ${port} exited (${signal ?? `code ${code}`}) before it listened:\n${lastLines.join('\n')}`,
        ),
      ),
    );
  });
  // After a start that succeeded, this settles when nginx is stopped: not unhandled then.
  outcome.catch(() => {});
  // A deadline for a failure, never waited out when nginx starts.
  let deadline: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    deadline = setTimeout(
      () => reject(new Error(`nginx on port ${port} did not listen within ${startDeadlineMs} ms`)),
      startDeadlineMs,
    );
  });
  try {
    if ((await Promise.race([outcome, late])) === 'ready') return child;
    await stop(child);
    return undefined;
  } catch (error) {
    await stop(child);
    throw error;
  } finally {
    clearTimeout(deadline);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
