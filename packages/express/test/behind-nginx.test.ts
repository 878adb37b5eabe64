import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import type { ClientRequest } from 'node:http';
import { request } from 'node:https';
import { before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mintPath } from '@form-embed/protocol';
import { type MountedMiddleware, openForm } from './helpers/harness.js';
import { type Nginx, readmeNginxBlock, startNginx } from './helpers/nginx.js';
import { instancesOnOneRedis } from './helpers/redis-instances.js';
import type { SecretWatch } from './helpers/secret-watch.js';

// The README's nginx block (Behind nginx), as a partner copies it, in a real nginx that ends TLS
// in front of portal instances: two that set trust proxy as the README says and share one Redis,
// and one that does not.

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
 * A mint of the open form sent through nginx, over TLS, as a browser at `from` sends it from a
 * page on `origin` (the portal's own by default: `https://localhost:<port>`).
 */
function sendMint(nginx: Nginx, visit: Visit): ClientRequest {
  const outgoing = request({
    host: '127.0.0.1',
    servername: 'localhost',
    port: nginx.port,
    localAddress: visit.from,
    ca: nginx.certificate,
    agent: false,
    method: 'POST',
    path: `/form-sessions${mintPath(openForm)}`,
    headers: {
      host: `localhost:${nginx.port}`,
      origin: visit.origin ?? `https://localhost:${nginx.port}`,
      'content-type': 'application/json',
      ...(visit.origin ? {} : { 'sec-fetch-site': 'same-origin' }),
      ...(visit.session ? { 'x-portal-session': visit.session } : {}),
      ...visit.headers,
    },
  });
  outgoing.end('{}');
  return outgoing;
}

/** `sendMint`'s answer, recorded in `watch`. */
function mintThrough(nginx: Nginx, visit: Visit, watch: SecretWatch): Promise<Answer> {
  return new Promise((resolve, reject) => {
    sendMint(nginx, visit)
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

const { watch, sandbox, start, stopAtEnd } = instancesOnOneRedis('behind-nginx:');

/** The abort signal of each mint an instance sent upstream, as it sends it. */
const upstreamMints = new EventEmitter<{ sent: [AbortSignal] }>();
const fetchTold: typeof fetch = (input, init) => {
  if (init?.method === 'POST' && init.signal) upstreamMints.emit('sent', init.signal);
  return fetch(input, init);
};

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

async function nginxInFrontOf(instances: MountedMiddleware[]): Promise<Nginx> {
  const upstreams = instances.map((instance) => new URL(instance.server.endpoint).host);
  const nginx = await startNginx(await readmeNginxBlock(upstreams));
  stopAtEnd(() => nginx.stop());
  return nginx;
}

describe("the README's nginx in front of two instances that set trust proxy 1 and share one Redis", () => {
  let nginx: Nginx;
  before(async () => {
    nginx = await nginxInFrontOf([await instance('a', 1), await instance('b', 1)]);
  });

  test("a page's mints pass the origin check over TLS on a port other than 443, both instances answer them, and one user's limit of 10 holds across the two", async () => {
    const from = '127.0.0.2';
    const minted: Answer[] = [];
    for (let index = 0; index < 10; index++) {
      minted.push(await mintThrough(nginx, { from, session: 'adele' }, watch));
    }
    assert.deepEqual(summary(minted), { statuses: [200], instances: ['a', 'b'] });
    const refused = [
      await mintThrough(nginx, { from, session: 'adele' }, watch),
      await mintThrough(nginx, { from, session: 'adele' }, watch),
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
      spent.push(await mintThrough(nginx, { from: '127.0.0.3' }, watch));
    }
    assert.deepEqual(summary(spent), { statuses: [200], instances: ['a', 'b'] });
    const forged = await mintThrough(
      nginx,
      { from: '127.0.0.3', headers: { 'x-forwarded-for': '203.0.113.9' } },
      watch,
    );
    assert.equal(forged.status, 429, 'a written X-Forwarded-For moves the count nowhere');
    const another = await mintThrough(nginx, { from: '127.0.0.4' }, watch);
    assert.equal(another.status, 200, 'another address has a count of its own');
  });

  test('a page on another site that writes an X-Forwarded-Host naming itself is refused (nginx writes that header), and the log gives the portal its public origin', async () => {
    const evil = 'https://evil.example';
    const from = watch.logLines.length;
    const answer = await mintThrough(
      nginx,
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
          `refused a request from ${evil}: this router's own origin is https://localhost:${nginx.port}.`,
        ),
      ),
      warned.join('\n'),
    );
  });
  test('a browser that goes while its mint is in flight: nginx closes its connection to the instance, which aborts the mint it sent upstream', async () => {
    sandbox().control.setLatency(2_000);
    try {
      const sent = once(upstreamMints, 'sent') as Promise<[AbortSignal]>;
      const visit = sendMint(nginx, { from: '127.0.0.7', session: 'alex' });
      visit.on('error', () => {});
      // A mint refused before it reaches the service (the origin check) is never sent upstream.
      const answered = once(visit, 'response').then(([response]) => {
        throw new Error(`answered ${response.statusCode} before it was sent to the service`);
      });
      const [signal] = await Promise.race([sent, answered]);
      visit.destroy();
      const aborted = once(signal, 'abort').then(() => 'aborted');
      // A deadline for a failure, never waited out when nginx passes the close on; unref'd, so
      // that it does not hold the test process open for its 5 s once the race is won.
      const deadline = sleep(5_000, 'still in flight after 5 s', { ref: false });
      const outcome = await Promise.race([aborted, deadline]);
      assert.equal(outcome, 'aborted');
    } finally {
      sandbox().control.setLatency(0);
    }
  });
});

describe("the README's nginx in front of an instance that does not set trust proxy", () => {
  test("every mint from the portal's own page is refused as from another origin, and the log names both origins and says to set trust proxy", async () => {
    const nginx = await nginxInFrontOf([await instance('untrusting', false)]);
    const from = watch.logLines.length;
    const answer = await mintThrough(nginx, { from: '127.0.0.6', session: 'alex' }, watch);
    assert.equal(answer.status, 403);
    assert.equal(answer.body.error?.code, 'forbidden');
    const warned = watch.logLines.slice(from).map((line) => line.message);
    assert.ok(
      warned.some(
        (message) =>
          message.startsWith(
            `refused a request from https://localhost:${nginx.port}: this router's own origin is http://portal.`,
          ) && message.includes("app.set('trust proxy', 1)"),
      ),
      warned.join('\n'),
    );
  });
});
