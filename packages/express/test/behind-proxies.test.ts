import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import type { ClientRequest } from 'node:http';
import { connect, constants } from 'node:http2';
import { request } from 'node:https';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintPath } from '@form-embed/protocol';
import { readmeHaproxyBlock, startHaproxy } from './helpers/haproxy.js';
import { type MountedMiddleware, openForm } from './helpers/harness.js';
import { readmeNginxBlock, startNginx } from './helpers/nginx.js';
import { instancesOnOneRedis } from './helpers/redis-instances.js';
import type { SecretWatch } from './helpers/secret-watch.js';
import type { TlsProxy } from './helpers/tls-proxy.js';

// Each proxy's README block (Behind nginx, Behind HAProxy), as a partner copies it, in a real
// proxy that ends TLS in front of portal instances: two that set trust proxy as the README says
// and share one Redis, and one that does not.

interface Visit {
  /** The visitor's address (a loopback one: Linux answers on all of 127.0.0.0/8). */
  from: string;
  /** Signed in as this portal user; signed out when absent. */
  session?: string;
  /** The page's origin; the portal's own by default. */
  origin?: string;
  headers?: Record<string, string>;
}

interface Answer {
  status: number;
  instance?: string;
  body: { error?: { code?: string } };
}

/**
 * A mint of the open form sent through the proxy, over TLS, as a browser at `from` sends it from a
 * page on `origin` (the portal's own by default: `https://localhost:<port>`).
 */
function sendMint(proxy: TlsProxy, visit: Visit): ClientRequest {
  const outgoing = request({
    ...connection(proxy, visit),
    agent: false,
    method: 'POST',
    path: `/form-sessions${mintPath(openForm)}`,
    headers: { host: `localhost:${proxy.port}`, ...mintHeaders(proxy, visit) },
  });
  outgoing.end('{}');
  return outgoing;
}

/** The TLS connection of a browser at `visit.from` to the proxy. */
function connection(proxy: TlsProxy, visit: Visit) {
  return {
    host: '127.0.0.1',
    servername: 'localhost',
    port: proxy.port,
    localAddress: visit.from,
    ca: proxy.certificate,
  };
}

function mintHeaders(proxy: TlsProxy, visit: Visit): Record<string, string> {
  return {
    origin: visit.origin ?? `https://localhost:${proxy.port}`,
    'content-type': 'application/json',
    ...(visit.origin ? {} : { 'sec-fetch-site': 'same-origin' }),
    ...(visit.session ? { 'x-portal-session': visit.session } : {}),
    ...visit.headers,
  };
}

/** A mint in flight that its browser can leave, and the status of its answer if one comes. */
interface Leavable {
  answered: Promise<number>;
  leave(): void;
  /** Closes the connection `leave` kept open (HTTP/2's), once the test has seen what it needs. */
  close(): void;
}

/** `sendMint`, left by closing the connection, as a browser leaves an HTTP/1.1 request. */
function leavableMint(proxy: TlsProxy, visit: Visit): Leavable {
  const outgoing = sendMint(proxy, visit);
  outgoing.on('error', () => {});
  return {
    answered: once(outgoing, 'response').then(([response]) => response.statusCode),
    leave: () => outgoing.destroy(),
    close: () => {},
  };
}

/**
 * The mint over HTTP/2, left as a browser leaves a request on an HTTP/2 connection (a fetch
 * aborted, a frame removed): the stream is cancelled (RST_STREAM), the connection stays.
 */
async function leavableHttp2Mint(proxy: TlsProxy, visit: Visit): Promise<Leavable> {
  const session = connect(`https://localhost:${proxy.port}`, connection(proxy, visit));
  session.on('error', () => {});
  await once(session, 'connect');
  // Node's client, like the proxy, speaks HTTP/2 unasked; a browser only when ALPN offers it.
  assert.equal(session.alpnProtocol, 'h2', 'the proxy offers HTTP/2 (ALPN)');
  const stream = session.request({
    ':method': 'POST',
    ':path': `/form-sessions${mintPath(openForm)}`,
    ...mintHeaders(proxy, visit),
  });
  stream.on('error', () => {});
  stream.end('{}');
  return {
    answered: once(stream, 'response').then(([headers]) => headers[':status']),
    // The stream alone: the connection stays open, as a browser keeps it, until `close`.
    leave: () => stream.close(constants.NGHTTP2_CANCEL),
    close: () => session.close(),
  };
}

/** `sendMint`'s answer, recorded in `watch`. */
function mintThrough(proxy: TlsProxy, visit: Visit, watch: SecretWatch): Promise<Answer> {
  return new Promise((resolve, reject) => {
    sendMint(proxy, visit)
      .on('error', reject)
      .on('response', async (response) => {
        let text = '';
        for await (const chunk of response) text += chunk;
        const headers = new Headers(response.headers as Record<string, string>);
        watch.record({ status: response.statusCode ?? 0, headers }, text);
        resolve({
          status: response.statusCode ?? 0,
          instance: response.headers['x-portal-instance'] as string | undefined,
          body: JSON.parse(text),
        });
      });
  });
}

/** The statuses of `answers` and the instances that gave them, each once. */
function summary(answers: Answer[]) {
  return {
    statuses: [...new Set(answers.map((answer) => answer.status))],
    instances: [...new Set(answers.map((answer) => answer.instance))].sort(),
  };
}

/** A proxy whose README block is tested, and what it does that the tests' titles or logs show. */
interface Proxy {
  name: string;
  /** The proxy, started with the README's block in front of the instances at `upstreams`. */
  start(upstreams: string[]): Promise<TlsProxy>;
  /**
   * A browser that closes its HTTP/1.1 connection while its mint is in flight stops the mint.
   * When not, the block offers HTTP/2, which a browser then speaks: a mint it leaves is a stream
   * cancelled, the connection kept.
   */
  closeStopsMint: boolean;
  /** What the block does with a visitor's own X-Forwarded-Host. */
  forwardedHost: string;
  /** The origin an instance without trust proxy takes for its own behind it, on `port`. */
  originUntrusted(port: number): string;
}

const proxies: Proxy[] = [
  {
    name: 'nginx',
    start: async (upstreams) => startNginx(await readmeNginxBlock(upstreams)),
    closeStopsMint: true,
    forwardedHost: 'nginx writes that header',
    // nginx sends the upstream's name as Host.
    originUntrusted: () => 'http://portal',
  },
  {
    name: 'HAProxy',
    start: async (upstreams) => startHaproxy(await readmeHaproxyBlock(upstreams)),
    closeStopsMint: false,
    forwardedHost: 'HAProxy removes that header',
    // HAProxy passes the visitor's Host on.
    originUntrusted: (port) => `http://localhost:${port}`,
  },
];

/** The abort signal of each mint an instance sent upstream, as it sends it. */
const upstreamMints = new EventEmitter<{ sent: [UpstreamMint] }>();
const fetchTold: typeof fetch = (input, init) => {
  const answer = fetch(input, init);
  if (init?.method === 'POST' && init.signal) {
    const settled = answer.then(
      () => 'answered' as const,
      () => 'failed' as const,
    );
    upstreamMints.emit('sent', { signal: init.signal, settled });
  }
  return answer;
};

interface UpstreamMint {
  signal: AbortSignal;
  /** Whether the service's answer came, or the request failed (aborted). */
  settled: Promise<'answered' | 'failed'>;
}

/**
 * The mint that `send` starts, once an instance has sent it upstream, its browser gone, and the
 * visit's `close`.
 */
async function leftInFlight(
  send: () => Leavable | Promise<Leavable>,
): Promise<UpstreamMint & Pick<Leavable, 'close'>> {
  const sent = once(upstreamMints, 'sent') as Promise<[UpstreamMint]>;
  const visit = await send();
  // A mint refused before it reaches the service (the origin check) is never sent upstream.
  const answered = visit.answered.then((status) => {
    throw new Error(`answered ${status} before it was sent to the service`);
  });
  const [mint] = await Promise.race([sent, answered]);
  visit.leave();
  return { ...mint, close: visit.close };
}

for (const proxy of proxies) {
  describe(`behind ${proxy.name}`, () => {
    const { watch, sandbox, start, stopAtEnd } = instancesOnOneRedis(`behind-${proxy.name}:`);

    /** An instance that names itself in each answer, as the README sets it up or with `trustProxy`. */
    async function instance(name: string, trustProxy: number | false): Promise<MountedMiddleware> {
      const portal = await start({ fetch: fetchTold }, (app) => {
        if (trustProxy !== false) app.set('trust proxy', trustProxy);
        app.use((_req, res, next) => {
          res.set('x-portal-instance', name);
          next();
        });
      });
      stopAtEnd(() => portal.close());
      return portal;
    }

    async function proxyInFrontOf(instances: MountedMiddleware[]): Promise<TlsProxy> {
      const started = await proxy.start(
        instances.map((instance) => new URL(instance.server.endpoint).host),
      );
      stopAtEnd(() => started.stop());
      return started;
    }

    describe(`the README's ${proxy.name} in front of two instances that set trust proxy 1 and share one Redis`, () => {
      let front: TlsProxy;
      before(async () => {
        front = await proxyInFrontOf([await instance('a', 1), await instance('b', 1)]);
      });

      test("a page's mints pass the origin check over TLS on a port other than 443, both instances answer them, and one user's limit of 10 holds across the two", async () => {
        const from = '127.0.0.2';
        const minted: Answer[] = [];
        for (let index = 0; index < 10; index++) {
          minted.push(await mintThrough(front, { from, session: 'adele' }, watch));
        }
        assert.deepEqual(summary(minted), { statuses: [200], instances: ['a', 'b'] });
        const refused = [
          await mintThrough(front, { from, session: 'adele' }, watch),
          await mintThrough(front, { from, session: 'adele' }, watch),
        ];
        assert.deepEqual(summary(refused), { statuses: [429], instances: ['a', 'b'] });
        assert.deepEqual(
          watch.logLines.filter((line) => line.level !== 'info'),
          [],
          'no instance warned (of trust proxy, or a refused origin)',
        );
      });

      test('signed out, each visitor counts under its own address, in both instances, whatever X-Forwarded-For it writes', async () => {
        const spent: Answer[] = [];
        for (let index = 0; index < 10; index++) {
          spent.push(await mintThrough(front, { from: '127.0.0.3' }, watch));
        }
        assert.deepEqual(summary(spent), { statuses: [200], instances: ['a', 'b'] });
        const forged = await mintThrough(
          front,
          { from: '127.0.0.3', headers: { 'x-forwarded-for': '203.0.113.9' } },
          watch,
        );
        assert.equal(forged.status, 429, 'a written X-Forwarded-For moves the count nowhere');
        const another = await mintThrough(front, { from: '127.0.0.4' }, watch);
        assert.equal(another.status, 200, 'another address has a count of its own');
      });

      test(`a page on another site that writes an X-Forwarded-Host naming itself is refused (${proxy.forwardedHost}), and the log gives the portal its public origin`, async () => {
        const evil = 'https://evil.example';
        const from = watch.logLines.length;
        const answer = await mintThrough(
          front,
          {
            from: '127.0.0.5',
            session: 'adele',
            origin: evil,
            headers: { 'x-forwarded-host': 'evil.example' },
          },
          watch,
        );
        assert.equal(answer.status, 403);
        assert.equal(answer.body.error?.code, 'forbidden');
        const warned = watch.logLines.slice(from).map((line) => line.message);
        assert.ok(
          warned.some((message) =>
            message.startsWith(
              `refused a request from ${evil}: this router's own origin is https://localhost:${front.port}.`,
            ),
          ),
          warned.join('\n'),
        );
      });

      test(`a browser that goes while its mint is in flight${proxy.closeStopsMint ? '' : ' (over HTTP/2: its stream cancelled)'}: ${proxy.name} closes its connection to the instance, which aborts the mint it sent upstream`, async () => {
        sandbox().control.setLatency(2_000);
        try {
          const visit = { from: '127.0.0.7', session: 'alex' };
          const { signal, close } = await leftInFlight(() =>
            proxy.closeStopsMint ? leavableMint(front, visit) : leavableHttp2Mint(front, visit),
          );
          const aborted = once(signal, 'abort').then(() => 'aborted');
          // A deadline for a failure, never waited out when the proxy passes the close on;
          // unref'd, so that it does not hold the test process open for its 5 s once the race
          // is won.
          const deadline = sleep(5_000, 'still in flight after 5 s', { ref: false });
          const outcome = await Promise.race([aborted, deadline]);
          // Only now: over HTTP/2 the cancelled stream alone stopped the mint, not a closed
          // connection.
          close();
          assert.equal(outcome, 'aborted');
        } finally {
          sandbox().control.setLatency(0);
        }
      });

      if (!proxy.closeStopsMint) {
        test(`over HTTP/1.1, ${proxy.name} lets the mint of a browser that closed its connection run on to the service's answer (why its README block offers HTTP/2)`, async () => {
          sandbox().control.setLatency(300);
          try {
            const { signal, settled } = await leftInFlight(() =>
              leavableMint(front, { from: '127.0.0.8', session: 'alex' }),
            );
            assert.equal(await settled, 'answered');
            assert.equal(signal.aborted, false);
          } finally {
            sandbox().control.setLatency(0);
          }
        });
      }
    });

    describe(`the README's ${proxy.name} in front of an instance that does not set trust proxy`, () => {
      test("every mint from the portal's own page is refused as from another origin, and the log names both origins and says to set trust proxy", async () => {
        const front = await proxyInFrontOf([await instance('untrusting', false)]);
        const from = watch.logLines.length;
        const answer = await mintThrough(front, { from: '127.0.0.6', session: 'alex' }, watch);
        assert.equal(answer.status, 403);
        assert.equal(answer.body.error?.code, 'forbidden');
        const warned = watch.logLines.slice(from).map((line) => line.message);
        assert.ok(
          warned.some(
            (message) =>
              message.startsWith(
                `refused a request from https://localhost:${front.port}: this router's own origin is ${proxy.originUntrusted(front.port)}.`,
              ) && message.includes("app.set('trust proxy', 1)"),
          ),
          warned.join('\n'),
        );
      });
    });
  });
}
