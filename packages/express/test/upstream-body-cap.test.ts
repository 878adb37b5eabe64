import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import type { ServerResponse } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { SessionErrorBodySchema } from '@form-embed/protocol';
import { fixtureIds, fixtureKeys } from '@form-embed/sandbox';
import FakeTimers from '@sinonjs/fake-timers';
import {
  answerMe,
  type FakeUpstream,
  fakeOrganisation,
  startFakeUpstream,
} from './helpers/fake-upstream.js';
import { type MountedMiddleware, mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesWithin } from './helpers/settles.js';

const MiB = 1024 * 1024;
const watch = new SecretWatch();
let upstream: FakeUpstream;
let portal: MountedMiddleware;
let bodyBytesSent = 0;

/** Streams `{"embedUrl":"xxxx…` for `size` bytes, honouring backpressure, until the reader goes. */
async function streamHugeBody(res: ServerResponse, size: number): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'x');
  res.write('{"embedUrl":"');
  for (let sent = 0; sent < size && !res.destroyed; sent += chunk.length) {
    bodyBytesSent += chunk.length;
    if (!res.write(chunk)) {
      // Whichever comes first; the other listener goes too, or one per wait piles up on `res`.
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.once('drain', done).once('close', done);
      });
    }
  }
  res.end('"}');
}

// 8 MiB of JSON that gzip packs into a few KiB, sent with its (small) Content-Length.
const gzipBomb = gzipSync(`{"embedUrl":"${'x'.repeat(8 * MiB)}"}`);

function answerGzipBomb(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-encoding': 'gzip',
    'content-length': gzipBomb.length,
  });
  res.end(gzipBomb);
}

/**
 * An answer whose body breaks off: `broken-gzip` names gzip and is not, `broken-reset` is cut
 * after its first bytes; `-limited` makes it a 429 with Retry-After 30, else a 200.
 */
function answerBrokenOff(url: string, res: ServerResponse): void {
  const limited = url.includes('-limited');
  const headers = {
    'content-type': 'application/json',
    ...(limited ? { 'retry-after': '30' } : {}),
  };
  if (url.includes('broken-gzip')) {
    res.writeHead(limited ? 429 : 200, { ...headers, 'content-encoding': 'gzip' });
    res.end('{"this is": "not gzip"}');
  } else {
    res.writeHead(limited ? 429 : 200, { ...headers, 'content-length': 100 });
    res.write('{"error":');
    setImmediate(() => res.destroy());
  }
}

/**
 * A form session of exactly `size` bytes of JSON (whitespace after the object makes up the
 * length), chunked: no Content-Length to read the size from, only the bytes as they come.
 */
function answerSized(res: ServerResponse, size: number): void {
  const session = JSON.stringify({
    embedUrl: `${fakeOrganisation.formsOrigin}/s/sized`,
    provider: 'microsoft',
    expiresIn: 120,
  });
  const body = session.padEnd(size, ' ');
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write(body.slice(0, 512));
  res.end(body.slice(512));
}

before(async () => {
  upstream = await startFakeUpstream(async (req, res) => {
    if (answerMe(req, res)) return;
    if (req.url?.includes('warm-up')) return void res.writeHead(400).end('{}');
    if (req.url?.includes('gzip-bomb')) return void answerGzipBomb(res);
    if (req.url?.includes('broken-')) return void answerBrokenOff(req.url, res);
    const sized = /\/forms\/sized-(\d+)\//.exec(req.url ?? '');
    if (sized) return void answerSized(res, Number(sized[1]));
    if (req.url?.includes('stalled')) {
      // Headers, the body's first bytes, and then nothing until the portal gives up.
      res.writeHead(req.url.includes('-limited') ? 429 : 200, {
        'content-type': 'application/json',
        'retry-after': '30',
      });
      return void res.write('{"embedUrl":');
    }
    await streamHugeBody(res, 64 * MiB);
  });
  portal = await mountMiddleware(watch, {
    apiKey: fixtureKeys.primary,
    baseUrl: upstream.baseUrl,
    resolveUser: () => ({ clientId: fixtureIds.clients.contoso }),
  });
});

after(async () => {
  await portal.close();
  await upstream.close();
  await watch.assertNoSecret([fixtureKeys.primary]);
});

describe('what is read of an upstream answer', () => {
  test('a 64 MiB answer is cut off at maxUpstreamBodyBytes (1 MiB): internal_error in the documented shape, RSS growing under 32 MiB', async () => {
    // The same path once with a small answer first, so that what is measured is the body alone.
    await portal.mint({ kind: 'form', formId: 'warm-up' });
    const rssBefore = process.memoryUsage().rss;
    const answer = await portal.mint({ kind: 'form', formId: fixtureIds.forms.open });
    const growth = process.memoryUsage().rss - rssBefore;
    console.log(
      `RSS growth ${(growth / MiB).toFixed(1)} MiB, ${(bodyBytesSent / MiB).toFixed(1)} MiB sent`,
    );
    assert.equal(answer.status, 500, answer.text);
    const { error } = SessionErrorBodySchema.parse(answer.body);
    assert.equal(error.code, 'internal_error');
    assert.equal(error.retryable, true);
    assert.ok(growth < 32 * MiB, `RSS grew ${(growth / MiB).toFixed(1)} MiB`);
    assert.ok(bodyBytesSent < 16 * MiB, `the upstream sent ${bodyBytesSent / MiB} MiB`);
  });

  test('a chunked answer (no Content-Length) of exactly maxUpstreamBodyBytes is read whole and minted; one byte more is internal_error', async () => {
    await using capped = await mountMiddleware(watch, {
      apiKey: fixtureKeys.primary,
      baseUrl: upstream.baseUrl,
      resolveUser: () => ({ clientId: fixtureIds.clients.contoso }),
      maxUpstreamBodyBytes: 1024,
    });
    const atCap = await capped.mint({ kind: 'form', formId: 'sized-1024' });
    assert.equal(atCap.status, 200, atCap.text);
    assert.equal(
      (atCap.body as { embedUrl?: unknown }).embedUrl,
      `${fakeOrganisation.formsOrigin}/s/sized`,
    );
    const linesBefore = watch.logLines.length;
    const overCap = await capped.mint({ kind: 'form', formId: 'sized-1025' });
    assert.equal(overCap.status, 500, overCap.text);
    assert.equal(SessionErrorBodySchema.parse(overCap.body).error.code, 'internal_error');
    assert.ok(
      watch.logLines
        .slice(linesBefore)
        .some((line) => line.message.includes('longer than maxUpstreamBodyBytes')),
      'the cut-off was not logged',
    );
  });

  test('a compressed answer whose Content-Length is small is still cut off at maxUpstreamBodyBytes once inflated', async () => {
    const linesBefore = watch.logLines.length;
    const answer = await portal.mint({ kind: 'form', formId: 'gzip-bomb' });
    assert.equal(answer.status, 500, answer.text);
    const { error } = SessionErrorBodySchema.parse(answer.body);
    assert.equal(error.code, 'internal_error');
    assert.ok(
      watch.logLines
        .slice(linesBefore)
        .some((line) => line.message.includes('longer than maxUpstreamBodyBytes')),
      'the cut-off was not logged',
    );
  });

  for (const broken of ['broken-gzip', 'broken-reset']) {
    test(`an answer whose body breaks off (${broken}) is an answer, not the service unreached: a 200's is internal_error, logged as broken off, and a 429's keeps its Retry-After`, async () => {
      const linesBefore = watch.logLines.length;
      const answer = await portal.mint({ kind: 'form', formId: broken });
      assert.equal(answer.status, 500, answer.text);
      assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'internal_error');
      const messages = watch.logLines.slice(linesBefore).map((line) => line.message);
      assert.ok(
        messages.some((message) => message.includes('broke off before its end')),
        JSON.stringify(messages),
      );
      assert.ok(!messages.some((message) => message.includes('could not be reached')));
      const limited = await portal.mint({ kind: 'form', formId: `${broken}-limited` });
      assert.equal(limited.status, 429, limited.text);
      assert.equal(SessionErrorBodySchema.parse(limited.body).error.code, 'rate_limited');
      assert.equal(limited.headers.get('Retry-After'), '30');
    });
  }

  test('a body that stalls past timeoutMs is the service not answering in time: unavailable, logged as such, not an answer broken off', async (t) => {
    const headersRead = new EventEmitter();
    await using slow = await mountMiddleware(watch, {
      apiKey: fixtureKeys.primary,
      baseUrl: upstream.baseUrl,
      resolveUser: () => ({ clientId: fixtureIds.clients.contoso }),
      timeoutMs: 1_000,
      // Tells the test once the middleware holds the answer's headers: its body is being read.
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (String(input).includes('stalled')) headersRead.emit('read');
        return response;
      },
    });
    // Only the middleware's timers: sockets and the servers keep real time.
    const clock = FakeTimers.install({
      toFake: ['setTimeout', 'clearTimeout'],
      shouldClearNativeTimers: true,
    });
    t.after(() => clock.uninstall());
    const linesBefore = watch.logLines.length;
    for (const formId of ['stalled', 'stalled-limited']) {
      const read = once(headersRead, 'read');
      const answering = slow.mint({ kind: 'form', formId });
      await read;
      await clock.tickAsync(1_000);
      assert.ok(await settlesWithin(answering), `${formId}: answered once timeoutMs has passed`);
      const answer = await answering;
      assert.equal(answer.status, 503, answer.text);
      assert.equal(SessionErrorBodySchema.parse(answer.body).error.code, 'unavailable');
    }
    // One line for the two: the second met the same outage (repeated-lines.ts).
    const messages = watch.logLines.slice(linesBefore).map((line) => line.message);
    assert.deepEqual(
      messages,
      ['the service did not answer POST formSession within timeoutMs (1000 ms)'],
      JSON.stringify(messages),
    );
  });
});
