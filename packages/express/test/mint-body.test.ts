import assert from 'node:assert/strict';
import { once } from 'node:events';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { MintResponseSchema, SessionErrorBodySchema } from '@form-embed/protocol';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import express from 'express';
import {
  type Answer,
  type MountedMiddleware,
  mintPathOfOpenForm,
  mountMiddleware,
  openForm,
  withoutUpstream,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesWithin } from './helpers/settles.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
let portal: MountedMiddleware;
let parsingPortal: MountedMiddleware;

before(async () => {
  sandbox = await startSandbox();
  const options = { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, limit: { mints: 1000 } };
  portal = await mountMiddleware(watch, options);
  // A portal that parses every JSON body itself, before the middleware.
  parsingPortal = await mountMiddleware(watch, options, (app) => app.use(express.json()));
});

after(async () => {
  await portal.close();
  await parsingPortal.close();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

function assertInvalidRequest(answer: Answer, message: RegExp) {
  assert.equal(answer.status, 400, answer.text);
  const { error } = SessionErrorBodySchema.parse(answer.body);
  assert.equal(error.code, 'invalid_request');
  assert.match(error.message, message);
  assert.equal(answer.headers.get('cache-control'), 'no-store');
}

/**
 * Sends a mint's head on a socket of its own, announcing `announced` bytes of body, then `sent`
 * (the rest is the test's to write, or never sent). `received()` is what came back so far;
 * `closed` settles when the connection closes.
 */
async function sendMintHead(
  mounted: MountedMiddleware,
  { announced, sent = '', headers = '' }: { announced: number; sent?: string; headers?: string },
) {
  const endpoint = new URL(mounted.server.endpoint);
  const socket = connect(Number(endpoint.port), endpoint.hostname);
  await once(socket, 'connect');
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => {
    received += chunk;
  });
  const closed = once(socket, 'close');
  socket.write(
    `POST ${endpoint.pathname}${mintPathOfOpenForm} HTTP/1.1\r\nHost: ${endpoint.host}\r\nContent-Type: application/json\r\nSec-Fetch-Site: same-origin\r\n${headers}Content-Length: ${announced}\r\n\r\n${sent}`,
  );
  return { socket, received: () => received, closed };
}

describe('the mint request body (read only to refuse a malformed one)', () => {
  test('an empty body, {} and [] are minted', async () => {
    for (const body of ['', '{}', ' [] ']) {
      const answer = await portal.mint(openForm, { body });
      assert.equal(answer.status, 200, `${JSON.stringify(body)}: ${answer.text}`);
      MintResponseSchema.parse(answer.body);
    }
    // Without Content-Length: 0, which fetch sends (curl -X POST with no body, a chunked client).
    const chunked = await portal.rawRequest(mintPathOfOpenForm, {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      body: '',
    });
    assert.equal(chunked.status, 200, chunked.text);
  });

  test('JSON that is not an object or an array is invalid_request, as body-parser strict mode was', async () => {
    await withoutUpstream(portal, async () => {
      for (const body of ['"user"', 'null', '42', 'true']) {
        assertInvalidRequest(await portal.mint(openForm, { body }), /not valid JSON/);
      }
    });
  });

  test('a body over 16 KB sent without Content-Length (chunked) is invalid_request', async () => {
    await withoutUpstream(portal, async () => {
      const answer = await portal.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        headers: { 'transfer-encoding': 'chunked' },
        body: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      });
      assertInvalidRequest(answer, /too large/);
      // The rest of the body, unread, would hold the connection.
      assert.equal(answer.headers.get('connection'), 'close');
    });
  });

  test('a body over 16 KB by its Content-Length is invalid_request unread, and its connection closed', async () => {
    await withoutUpstream(portal, async () => {
      const answer = await portal.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        body: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      });
      assertInvalidRequest(answer, /too large/);
      assert.equal(answer.headers.get('connection'), 'close');
    });
  });

  test('a body whose Content-Length is over 16 KB is refused at once, without waiting for it: not held until timeoutMs', async () => {
    await withoutUpstream(portal, async () => {
      // A megabyte announced, one byte sent, and the rest never: waited for, it would be refused
      // only once timeoutMs had passed, as not received in time.
      const { socket, received } = await sendMintHead(portal, {
        announced: 1024 * 1024,
        sent: '{',
      });
      // Until the whole answer is in, not until the close: a connection left open must fail the
      // Connection check below, not hang the test.
      while (!/\r\n\r\n\{.*\}$/s.test(received())) await new Promise((r) => setImmediate(r));
      socket.destroy();
      const [head = '', text = ''] = received().split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 400 /);
      assert.match(head, /\r\nConnection: close\r\n/i);
      const { error } = SessionErrorBodySchema.parse(JSON.parse(text));
      assert.match(error.message, /too large/);
    });
  });

  test('a body of exactly 16 KB is minted, by its Content-Length or chunked; one byte more is refused', async () => {
    // {"pad":"x…x"}: 10 characters and the pad.
    const bodyOf = (bytes: number) => JSON.stringify({ pad: 'x'.repeat(bytes - 10) });
    for (const headers of [{}, { 'transfer-encoding': 'chunked' }]) {
      const framing = Object.keys(headers).length === 0 ? 'Content-Length' : 'chunked';
      const fits = await portal.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        headers,
        body: bodyOf(16 * 1024),
      });
      assert.equal(fits.status, 200, `${framing}: ${fits.text}`);
      await withoutUpstream(portal, async () => {
        const over = await portal.rawRequest(mintPathOfOpenForm, {
          method: 'POST',
          headers,
          body: bodyOf(16 * 1024 + 1),
        });
        assertInvalidRequest(over, /too large/);
      });
    }
  });

  test('Content-Encoding: identity (any case, any spaces) is no compression: the mint is answered', async () => {
    for (const encoding of ['identity', ' Identity ']) {
      const answer = await portal.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        headers: { 'content-encoding': encoding },
      });
      assert.equal(answer.status, 200, `${encoding}: ${answer.text}`);
    }
  });

  test('a body with a Content-Encoding (compressed) is invalid_request: the element never compresses its `{}`', async () => {
    await withoutUpstream(portal, async () => {
      const answer = await portal.rawRequest(mintPathOfOpenForm, {
        method: 'POST',
        headers: { 'content-encoding': 'gzip' },
      });
      assertInvalidRequest(answer, /compressed/);
    });
  });

  test('a charset other than UTF-8 is invalid_request', async () => {
    await withoutUpstream(portal, async () => {
      const answer = await portal.mint(openForm, {
        headers: { 'content-type': 'application/json; charset=latin1' },
      });
      assertInvalidRequest(answer, /UTF-8/);
    });
  });

  // The timeout only turns a hang (waiting for a body that never comes) into a failure.
  test("a body the portal's own parser already read is not waited for: the mint is answered", {
    timeout: 30_000,
  }, async () => {
    const answer = await parsingPortal.mint(openForm);
    assert.equal(answer.status, 200, answer.text);
    MintResponseSchema.parse(answer.body);
  });

  // The timeout only turns a hang (a body never bounded) into a failure.
  test('a body that never ends is invalid_request once timeoutMs has passed, and its connection is closed', {
    timeout: 30_000,
  }, async (t) => {
    const TIMEOUT_MS = 3_000; // not the default: the option is what counts
    let routed: () => void = () => {};
    const reachedRouter = new Promise<void>((resolve) => {
      routed = resolve;
    });
    await using slow = await mountMiddleware(
      watch,
      { apiKey: sandbox.apiKey, baseUrl: sandbox.baseUrl, timeoutMs: TIMEOUT_MS },
      // The router starts reading the body before its handler returns (nothing awaited first).
      (app) =>
        app.use((_req, _res, next) => {
          next();
          routed();
        }),
    );
    await withoutUpstream(slow, async () => {
      // Only the middleware's own timers: sockets and the portal's server keep real time.
      const clock = FakeTimers.install({
        toFake: ['setTimeout', 'clearTimeout'],
        shouldClearNativeTimers: true,
      });
      t.after(() => clock.uninstall());
      // Ten bytes announced, one sent, and the rest never.
      const { received, closed } = await sendMintHead(slow, { announced: 10, sent: '{' });
      await reachedRouter;
      await clock.tickAsync(TIMEOUT_MS - 1);
      assert.equal(received(), '', 'not answered before timeoutMs');
      await clock.tickAsync(1);
      assert.ok(await settlesWithin(closed), 'closed once timeoutMs has passed');
      const [head = '', text = ''] = received().split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 400 /);
      assert.match(head, /\r\nConnection: close\r\n/i);
      assert.match(head, /\r\nCache-Control: no-store\r\n/i);
      const { error } = SessionErrorBodySchema.parse(JSON.parse(text));
      assert.equal(error.code, 'invalid_request');
      assert.match(error.message, /not received in time/);
    });
  });
  // withTimeout gives an answer one more turn after its timer fires: a body ending in that turn
  // is read, and the refusal of a late body (which closes the connection) must not follow it.
  test('a body whose end arrives in the turn its timeoutMs passes is read: the answer goes out as it is, and nothing throws', {
    timeout: 30_000,
  }, async (t) => {
    const TIMEOUT_MS = 3_000;
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    let clock: ReturnType<typeof FakeTimers.install> | undefined;
    await using slow = await mountMiddleware(
      watch,
      {
        apiKey: sandbox.apiKey,
        baseUrl: sandbox.baseUrl,
        timeoutMs: TIMEOUT_MS,
        // Refused at once once the body is read: the answer is sent within the same turn.
        authorize: () => false,
      },
      (app) =>
        app.use((req, _res, next) => {
          // The bound's timer fires as the body's last chunk arrives, before it is handled.
          req.prependListener('data', () => clock?.tick(TIMEOUT_MS));
          next();
        }),
    );
    await slow.mint(openForm); // the embed origins are read, so nothing upstream is in flight
    process.on('uncaughtException', onUncaught);
    t.after(() => process.off('uncaughtException', onUncaught)); // should the test fail first
    await withoutUpstream(slow, async () => {
      const installed = FakeTimers.install({
        toFake: ['setTimeout', 'clearTimeout'],
        shouldClearNativeTimers: true,
      });
      clock = installed;
      t.after(() => installed.uninstall());
      const { socket, received } = await sendMintHead(slow, {
        announced: 2,
        headers: 'X-Portal-Session: adele\r\n',
      });
      const headRead = new Promise<void>((resolve) => {
        socket.on('data', () => received().includes('\r\n\r\n') && resolve());
      });
      await new Promise((resolve) => setImmediate(resolve));
      socket.write('{}');
      assert.ok(await settlesWithin(headRead), 'answered');
      // The turns in which withTimeout's setImmediate would have refused the body.
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
      socket.destroy();
      const [head = ''] = received().split('\r\n\r\n');
      assert.match(head, /^HTTP\/1\.1 403 /);
      assert.doesNotMatch(head, /\r\nConnection: close\r\n/i);
    });
    process.off('uncaughtException', onUncaught);
    assert.deepEqual(uncaught, []);
  });
});
