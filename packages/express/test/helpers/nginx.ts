import { join } from 'node:path';
import {
  type Listen,
  type ProxyKind,
  readmeBlock,
  sbinBinary,
  startTlsProxy,
  type TlsProxy,
} from './tls-proxy.js';

/** A real nginx of this test run, on a free loopback port, ending TLS with its own certificate. */
export type Nginx = TlsProxy;

/** What goes in nginx's `http` block, given its port and its certificate's and key's paths. */
export type HttpBlock = (listen: Listen) => string;

/**
 * The README's one ```nginx block (Behind nginx) as a partner copies it, but for its two upstream
 * addresses (`upstreams`: the one, twice, when one is given), its port and its certificate.
 */
export async function readmeNginxBlock(upstreams: string[]): Promise<HttpBlock> {
  const block = await readmeBlock('nginx');
  const [first, second = first] = upstreams;
  return ({ port, certificate, key }) =>
    block([
      ['server 10.0.0.11:3000;', `server ${first};`],
      ['server 10.0.0.12:3000;', `server ${second};`],
      ['listen 443 ssl;', `listen 127.0.0.1:${port} ssl;`],
      ['/etc/ssl/portal.example.com.pem', certificate],
      ['/etc/ssl/portal.example.com.key', key],
    ]);
}

const nginx: ProxyKind = {
  name: 'nginx',
  binary: sbinBinary('nginx', process.env.NGINX),
  missing: 'install nginx or set NGINX',
  configFile: nginxConf,
  args: (dir, config) => ['-p', dir, '-c', config, '-e', 'stderr'],
  ready: /\bnginx\/\d/,
  inUse: /Address already in use/,
};

/**
 * Starts nginx with `http` as its `http` block, in a folder of its own (its pid, temp files, the
 * certificate): one process (`master_process off`), so that it ends with the run. Its port is
 * free when chosen; when something takes it before nginx binds it, it starts on another.
 */
export function startNginx(http: HttpBlock): Promise<Nginx> {
  return startTlsProxy(nginx, http);
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
