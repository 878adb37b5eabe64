import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../../../scripts/ports.mjs';
import { launchServer, type ServerCommand, stopServer } from './server-process.js';

/** A real proxy of this test run (nginx, HAProxy), on a free loopback port, ending TLS. */
export interface TlsProxy {
  port: number;
  /** The certificate it serves (for `localhost` and 127.0.0.1), for a client to trust. */
  certificate: string;
  stop(): Promise<void>;
}

/** Where a proxy listens and the files of its certificate, for its configuration. */
export interface Listen {
  port: number;
  certificate: string;
  key: string;
  /** The certificate and its private key in one file (HAProxy's `crt`). */
  bundle: string;
}

/** How to run one proxy in the foreground, which tells its start on stderr. */
export interface ProxyKind extends Omit<ServerCommand, 'args' | 'output'> {
  /** Its whole configuration file, written in `dir`, for `config` (its part for `listen`). */
  configFile(dir: string, config: string): string;
  args(dir: string, configPath: string): string[];
}

/**
 * The binary `name`: `env` when set, else Debian's in /usr/sbin (on the PATH of root alone), else
 * the one on the PATH.
 */
export function sbinBinary(name: string, env: string | undefined): string {
  return env ?? (existsSync(`/usr/sbin/${name}`) ? `/usr/sbin/${name}` : name);
}

const readme = new URL('../../README.md', import.meta.url);

/**
 * The README's one ```<language> block as a partner copies it: a function that gives it
 * with each `[from, to]` it is given replaced (each there).
 */
export async function readmeBlock(
  language: string,
): Promise<(replace: [string, string][]) => string> {
  const text = await readFile(readme, 'utf8');
  const block = new RegExp(`\\n\`\`\`${language}\\n([\\s\\S]*?)\\n\`\`\`\\n`).exec(text)?.[1];
  assert.ok(block, `the README has a \`\`\`${language} block`);
  return (replace) =>
    replace.reduce((config, [from, to]) => {
      assert.ok(config.includes(from), `the README's ${language} block has ${from}`);
      return config.replaceAll(from, to);
    }, block);
}

const portAttempts = 5;

/**
 * Starts `kind` with `config(listen)` in a folder of its own (its configuration, the certificate
 * and its key, whatever else it writes), as one process tree that ends with the run. Its port is
 * free when chosen; when something takes it before the proxy binds it, it starts on another.
 */
export async function startTlsProxy(
  kind: ProxyKind,
  config: (listen: Listen) => string,
): Promise<TlsProxy> {
  const dir = await mkdtemp(join(tmpdir(), `form-embed-${kind.name.toLowerCase()}-`));
  try {
    return await startIn(dir, kind, config);
  } catch (error) {
    // Not left behind by a run that goes on: it holds the certificate's private key.
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}

async function startIn(
  dir: string,
  kind: ProxyKind,
  config: (listen: Listen) => string,
): Promise<TlsProxy> {
  // Read by the proxy as the user it runs as.
  await chmod(dir, 0o755);
  const paths = {
    certificate: join(dir, 'portal.pem'),
    key: join(dir, 'portal.key'),
    bundle: join(dir, 'portal-and-key.pem'),
  };
  await selfSignedCertificate(paths.certificate, paths.key);
  const certificate = await readFile(paths.certificate, 'utf8');
  await writeFile(paths.bundle, certificate + (await readFile(paths.key, 'utf8')), {
    mode: 0o600,
  });
  for (let attempt = 1; attempt <= portAttempts; attempt++) {
    const port = await freePort();
    const configPath = join(dir, 'proxy.conf');
    await writeFile(configPath, kind.configFile(dir, config({ port, ...paths })));
    const child = await launchServer(
      { ...kind, args: kind.args(dir, configPath), output: 'stderr' },
      port,
    );
    if (child) {
      return {
        port,
        certificate,
        stop: async () => {
          await stopServer(child);
          await rm(dir, { recursive: true, force: true });
        },
      };
    }
  }
  throw new Error(
    `${kind.name} could not start: each port it was given was in use, ${portAttempts} attempts`,
  );
}

/** An EC certificate for one day, for `localhost` and 127.0.0.1, made by openssl. */
export async function selfSignedCertificate(certificate: string, key: string): Promise<void> {
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
