import {
  type Listen,
  type ProxyKind,
  readmeBlock,
  sbinBinary,
  startTlsProxy,
} from './tls-proxy.js';

/** The `frontend` and `backend` sections of a HAProxy configuration, given where it listens. */
export type Sections = (listen: Listen) => string;

/**
 * The README's one ```haproxy block (Behind HAProxy) as a partner copies it, but for its two
 * server addresses (`upstreams`: the one, twice, when one is given), its address and its PEM.
 */
export async function readmeHaproxyBlock(upstreams: string[]): Promise<Sections> {
  const block = await readmeBlock('haproxy');
  const [first, second = first] = upstreams;
  return ({ port, bundle }) =>
    block([
      [' 10.0.0.11:3000', ` ${first}`],
      [' 10.0.0.12:3000', ` ${second}`],
      ['bind :443 ', `bind 127.0.0.1:${port} `],
      ['/etc/haproxy/certs/portal.example.com.pem', bundle],
    ]);
}

const haproxy: ProxyKind = {
  name: 'HAProxy',
  binary: sbinBinary('haproxy', process.env.HAPROXY),
  missing: 'install haproxy or set HAPROXY',
  configFile: (_dir, sections) =>
    [
      // Debian's haproxy.cfg sets these timeouts in its defaults, where a partner's block goes;
      // without them HAProxy warns, and -dW refuses to start on a warning. No mode: the block's.
      'defaults',
      '  timeout connect 5s',
      '  timeout client 50s',
      '  timeout server 50s',
      '',
      sections,
      '',
    ].join('\n'),
  // In the foreground (-db) and, as Debian's service runs it, master and worker (-W): the master
  // binds the port, then says "Loading success." once its worker runs; its worker leaves when it
  // does. -dW: a warning about the configuration fails the start.
  args: (_dir, config) => ['-W', '-db', '-dW', '-f', config],
  ready: /Loading success\./,
  inUse: /cannot bind socket \(Address already in use\)/,
};

/**
 * Starts HAProxy with `sections` after a `defaults` section of timeouts, in a folder of its own
 * (its configuration, the certificate and its key), in the foreground, so that it ends with the
 * run. Its port is free when chosen; when something takes it first, it starts on another.
 */
export function startHaproxy(sections: Sections) {
  return startTlsProxy(haproxy, sections);
}
