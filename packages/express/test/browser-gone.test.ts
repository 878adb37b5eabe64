import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, beforeEach, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FormEmbedSessionsOptions } from '@form-embed/express';
import { type FormSessionUser, type FormTarget, mintPath } from '@form-embed/protocol';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import type { Express, Response } from 'express';
import { MemoryStore } from 'express-rate-limit';
import {
  type MountedMiddleware,
  mountMiddleware,
  openForm,
  PORTAL_SESSION_HEADER,
  portalUsers,
} from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';

// A browser that has gone (the page removed the element, a new form, a remint, or the person
// left) closes its mint request: the middleware mints nothing more for it, and answers nothing.

const watch = new SecretWatch();
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const mintCount = () => sandbox.control.stats()['POST /api/v1/forms/{formId}/session'] ?? 0;
let sandbox: Sandbox;
let exporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;

before(async () => {
  sandbox = await startSandbox();
  exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
  reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  metrics.disable();
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
});

beforeEach(() => sandbox.control.reset());

after(async () => {
  metrics.disable();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** The points of `name` (`form_embed.mints`) exported since the last call, as outcome and status. */
async function mintsCounted(name = 'form_embed.mints'): Promise<Record<string, unknown>[]> {
  return answersIn(await exportedSince(), name);
}

/** The points of the answers counter `name` among `exported`, as outcome and status. */
function answersIn(exported: MetricData[], name: string): Record<string, unknown>[] {
  return exported
    .filter((data) => data.descriptor.name === name)
    .flatMap((data) => data.dataPoints as DataPoint<number>[])
    .map((point) => ({
      outcome: point.attributes['form_embed.outcome'],
      status: point.attributes['http.response.status_code'],
      value: point.value,
    }));
}

/**
 * Every metric exported from now until `name` has a point (a request's answer is counted once
 * its route has ended), for at most 5 s.
 */
async function exportedUntil(name: string): Promise<MetricData[]> {
  const exported: MetricData[] = [];
  const deadline = Date.now() + 5_000;
  while (answersIn(exported, name).length === 0 && Date.now() < deadline) {
    await sleep(10);
    exported.push(...(await exportedSince()));
  }
  return exported;
}

/** Every metric exported since the last call (of this or `mintsCounted`). */
async function exportedSince(): Promise<MetricData[]> {
  await reader.forceFlush();
  const all = exporter.getMetrics().flatMap((m) => m.scopeMetrics.flatMap((s) => s.metrics));
  exporter.reset();
  return all;
}

function deferred<T = void>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

/** What the portal app saw of each mint response: closed before it was written, and written after. */
interface ResponseWatch {
  closedUnwritten: Promise<void>;
  writtenAfterClose: boolean;
}

/** Watches the next response of the portal app (mount this before the middleware). */
function watchResponses(app: Express, watched: ResponseWatch[]) {
  app.use((_req, res: Response, next) => {
    const closed = deferred();
    const seen: ResponseWatch = { closedUnwritten: closed.promise, writtenAfterClose: false };
    watched.push(seen);
    res.on('close', () => {
      if (!res.writableFinished) closed.resolve();
    });
    const end = res.end.bind(res);
    res.end = ((...args: Parameters<typeof res.end>) => {
      if (res.closed) seen.writtenAfterClose = true;
      return end(...args);
    }) as typeof res.end;
    next();
  });
}

/**
 * Sends a mint of `target` (or `GET /forms`) over `node:http`, signed in unless `session` is
 * undefined, and returns a function that drops it, as a browser's abort does.
 */
function startRequest(
  portal: MountedMiddleware,
  target: FormTarget | 'catalogue' = microsoftForm,
  session: string | undefined = 'adele',
): () => void {
  const endpoint = new URL(portal.server.endpoint);
  const outgoing = httpRequest({
    host: endpoint.hostname,
    port: endpoint.port,
    path: `${endpoint.pathname}${target === 'catalogue' ? '/forms' : mintPath(target)}`,
    method: target === 'catalogue' ? 'GET' : 'POST',
    headers: {
      'sec-fetch-site': 'same-origin',
      'content-type': 'application/json',
      ...(session === undefined ? {} : { [PORTAL_SESSION_HEADER]: session }),
    },
  });
  outgoing.on('error', () => {});
  outgoing.end(target === 'catalogue' ? undefined : '{}');
  return () => outgoing.destroy();
}

/** A fetch of the portal's own that takes no signal (an older HTTP client's wrapper, say). */
const fetchWithoutSignal: typeof fetch = (input, init) => {
  const { signal: _ignored, ...rest } = init ?? {};
  return fetch(input, rest);
};

/** A portal whose mints (its POSTs upstream) go through `mintFetch`, its other requests through fetch. */
function mountWithMintFetch(watched: ResponseWatch[], mintFetch: typeof fetch) {
  return mountMiddleware(
    watch,
    {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      fetch: (input, init) => (init?.method === 'POST' ? mintFetch : fetch)(input, init),
    },
    (app) => watchResponses(app, watched),
  );
}

/**
 * What a request whose browser went leaves: nothing written to its closed response, no log
 * line, and its one answer counted as client_closed_request, with no status.
 */
function assertGoneQuietly(
  watched: ResponseWatch | undefined,
  logs: unknown[],
  counted: Record<string, unknown>[],
) {
  assert.equal(watched?.writtenAfterClose, false, 'an answer was written to the closed response');
  assert.deepEqual(logs, []);
  assert.deepEqual(counted, [{ outcome: 'client_closed_request', status: undefined, value: 1 }]);
}

/**
 * Mounts a portal whose `hook` (`resolveUser` or `authorize`) answers `answer` only once the
 * browser has dropped its mint of `target` (or its `GET /forms`), and returns once that request
 * is counted: `counted` (its points, as `mintsCounted` gives them) and `logs`, the lines logged
 * meanwhile.
 */
async function droppedDuring(
  hook: 'resolveUser' | 'authorize',
  answer: FormSessionUser | boolean | undefined,
  options: Partial<FormEmbedSessionsOptions>,
  target: FormTarget | 'catalogue',
  session: string | undefined = 'adele',
) {
  const asked = deferred();
  const answered = deferred<typeof answer>();
  const watched: ResponseWatch[] = [];
  const portal = await mountMiddleware(
    watch,
    {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      ...options,
      [hook]: () => {
        asked.resolve();
        return answered.promise;
      },
    },
    (app) => watchResponses(app, watched),
  );
  await exportedSince();
  const logsBefore = watch.logLines.length;
  const drop = startRequest(portal, target, session);
  await asked.promise;
  drop();
  await watched[0]?.closedUnwritten;
  answered.resolve(answer);
  const name = target === 'catalogue' ? 'form_embed.catalogue.requests' : 'form_embed.mints';
  const counted = answersIn(await exportedUntil(name), name);
  return { portal, watched, counted, logs: watch.logLines.slice(logsBefore) };
}

test('a browser that goes while resolveUser is still running gets no mint: nothing reaches the service, authorize is not asked, nothing is written or logged, and the mint is counted as client_closed_request', async () => {
  let authorizeAsked = 0;
  const authorize = () => {
    authorizeAsked++;
    return true;
  };
  const dropped = await droppedDuring(
    'resolveUser',
    portalUsers.adele,
    { authorize },
    microsoftForm,
  );
  await using portal = dropped.portal;
  assert.equal(mintCount(), 0, 'a form-session request reached the service');
  assert.equal(authorizeAsked, 0, "the portal's authorize was asked for a browser that had gone");
  assert.deepEqual(
    portal.upstream.filter((call) => call.method === 'POST'),
    [],
  );
  assertGoneQuietly(dropped.watched[0], dropped.logs, dropped.counted);
});

test('a signed-out browser that goes before its mint leaves the count all signed-out visitors share unspent: it takes only mints that go to the service', async () => {
  const dropped = await droppedDuring(
    'resolveUser',
    undefined,
    { limit: { signedOutMints: 1 } },
    openForm,
    undefined,
  );
  await using portal = dropped.portal;
  assert.equal(mintCount(), 0, 'a form-session request reached the service');
  const next = await portal.mint(openForm);
  assert.equal(next.status, 200, next.text);
});

test('a browser that goes while the mint is in flight has the upstream request aborted: nothing written, nothing logged, and the next mint works', async () => {
  const sent = deferred<AbortSignal | undefined>();
  const settled = deferred<unknown>();
  const watched: ResponseWatch[] = [];
  await using portal = await mountWithMintFetch(watched, async (input, init) => {
    sent.resolve(init?.signal ?? undefined);
    try {
      const answer = await fetch(input, init);
      settled.resolve(answer.status);
      return answer;
    } catch (error) {
      settled.resolve(error);
      throw error;
    }
  });
  await mintsCounted();
  sandbox.control.setLatency(2_000);
  const logsBefore = watch.logLines.length;
  const drop = startRequest(portal);
  const signal = await sent.promise;
  drop();
  await watched[0]?.closedUnwritten;
  const outcome = await Promise.race([settled.promise, sleep(1_000, 'still waiting')]);
  assert.ok(outcome instanceof Error, `the upstream request was not aborted: ${String(outcome)}`);
  assert.equal(signal?.aborted, true);
  assert.notEqual((signal?.reason as Error | undefined)?.name, 'TimeoutError');
  const exported = await exportedUntil('form_embed.mints');
  assert.equal(
    watched[0]?.writtenAfterClose,
    false,
    'an answer was written to the closed response',
  );
  assert.deepEqual(watch.logLines.slice(logsBefore), []);
  const upstreamRecorded = exported
    .filter((data) => data.descriptor.name === 'form_embed.upstream.duration')
    .flatMap((data) => data.dataPoints.map((point) => point.attributes))
    .filter((attributes) => attributes['form_embed.upstream.endpoint'] === 'formSession');
  assert.deepEqual(upstreamRecorded, [], 'an aborted mint is no timeout nor network failure');
  const mintsRecorded = exported
    .filter((data) => data.descriptor.name === 'form_embed.mints')
    .flatMap((data) => data.dataPoints.map((point) => point.attributes['form_embed.outcome']));
  assert.deepEqual(mintsRecorded, ['client_closed_request']);
  assert.deepEqual(await mintsCounted(), [], 'counted once');

  sandbox.control.setLatency(0);
  const next = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(next.status, 200, next.text);
  assert.deepEqual(await mintsCounted(), [{ outcome: 'ok', status: 200, value: 1 }]);
});

test('a mint whose browser stays is answered as before, its upstream signal never aborted', async () => {
  const signals: (AbortSignal | undefined)[] = [];
  await using portal = await mountMiddleware(watch, {
    apiKey: sandbox.apiKey,
    baseUrl: sandbox.baseUrl,
    fetch: (input, init) => {
      if (init?.method === 'POST') signals.push(init.signal ?? undefined);
      return fetch(input, init);
    },
  });
  const logsBefore = watch.logLines.length;
  const answer = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(answer.status, 200, answer.text);
  assert.equal(signals.length, 1);
  assert.equal(signals[0]?.aborted, false);
  assert.deepEqual(watch.logLines.slice(logsBefore), []);
});

test('a browser that goes before its menu is answered costs no read of the service: nothing written, nothing logged, counted as client_closed_request', async () => {
  const dropped = await droppedDuring('resolveUser', portalUsers.adele, {}, 'catalogue');
  await using _portal = dropped.portal;
  const reads = Object.entries(sandbox.control.stats()).filter(
    ([route]) => route !== 'GET /api/v1/me',
  );
  assert.deepEqual(reads, [], 'the menu read the service');
  assertGoneQuietly(dropped.watched[0], dropped.logs, dropped.counted);
});

test('a browser that goes while resolveUser runs, for a user over limit.mints, is written nothing and counted as client_closed_request, the refusal still counted in form_embed.limit.refusals', async () => {
  const asked = deferred();
  const answerUser = deferred<FormSessionUser | undefined>();
  let slow = false;
  const watched: ResponseWatch[] = [];
  await using portal = await mountMiddleware(
    watch,
    {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 1 },
      resolveUser: () => {
        if (!slow) return portalUsers.adele;
        asked.resolve();
        return answerUser.promise;
      },
    },
    (app) => watchResponses(app, watched),
  );
  const first = await portal.mint(microsoftForm, { session: 'adele' });
  assert.equal(first.status, 200, first.text);
  await mintsCounted();
  slow = true;
  const logsBefore = watch.logLines.length;
  const drop = startRequest(portal);
  await asked.promise;
  drop();
  await watched[1]?.closedUnwritten;
  answerUser.resolve(portalUsers.adele);
  const exported = await exportedUntil('form_embed.mints');
  assertGoneQuietly(
    watched[1],
    watch.logLines.slice(logsBefore),
    answersIn(exported, 'form_embed.mints'),
  );
  const refusals = exported
    .filter((data) => data.descriptor.name === 'form_embed.limit.refusals')
    .flatMap((data) => data.dataPoints.map((point) => point.value));
  assert.deepEqual(refusals, [1]);
});

test('a signed-out browser that goes while authorize runs gets no mint, nothing written or logged, and leaves the count all signed-out visitors share unspent', async () => {
  const dropped = await droppedDuring(
    'authorize',
    true,
    { limit: { signedOutMints: 1 }, resolveUser: () => undefined },
    openForm,
  );
  await using portal = dropped.portal;
  assertGoneQuietly(dropped.watched[0], dropped.logs, dropped.counted);
  assert.equal(mintCount(), 0, 'a form-session request reached the service');
  const next = await portal.mint(openForm);
  assert.equal(next.status, 200, next.text);
});

test('a signed-out browser that goes while the count all signed-out visitors share is taken (a slow limit.store) gets no mint, sent by no fetch, even one that takes no signal', async () => {
  const counting = deferred();
  const counted = deferred();
  const store = new MemoryStore();
  const increment = store.increment.bind(store);
  store.increment = async (key: string) => {
    if (key.endsWith('signedOutMint:all')) {
      counting.resolve();
      await counted.promise;
    }
    return increment(key);
  };
  const watched: ResponseWatch[] = [];
  await using portal = await mountMiddleware(
    watch,
    {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { store, prefix: 'gone:' },
      resolveUser: () => undefined,
      // Even then the mint must not be sent at all.
      fetch: fetchWithoutSignal,
    },
    (app) => watchResponses(app, watched),
  );
  await mintsCounted();
  const drop = startRequest(portal, openForm, undefined);
  await counting.promise;
  drop();
  await watched[0]?.closedUnwritten;
  counted.resolve();
  const points = answersIn(await exportedUntil('form_embed.mints'), 'form_embed.mints');
  assert.deepEqual(points, [{ outcome: 'client_closed_request', status: undefined, value: 1 }]);
  assert.equal(mintCount(), 0, 'a form-session request reached the service');
  assert.equal(
    watched[0]?.writtenAfterClose,
    false,
    'an answer was written to the closed response',
  );
});

test('a browser that goes while a mint the fetch option does not end is out is written nothing and counted as client_closed_request, not ok', async () => {
  const sent = deferred();
  const answer = deferred();
  const watched: ResponseWatch[] = [];
  await using portal = await mountWithMintFetch(watched, async (input, init) => {
    sent.resolve();
    const response = await fetchWithoutSignal(input, init);
    await answer.promise;
    return response;
  });
  await mintsCounted();
  const logsBefore = watch.logLines.length;
  const drop = startRequest(portal);
  await sent.promise;
  drop();
  await watched[0]?.closedUnwritten;
  answer.resolve();
  const counted = answersIn(await exportedUntil('form_embed.mints'), 'form_embed.mints');
  assertGoneQuietly(watched[0], watch.logLines.slice(logsBefore), counted);
});

test("a browser that goes while its menu's forms are being authorized is written nothing and counted as client_closed_request, not ok", async () => {
  const dropped = await droppedDuring('authorize', true, {}, 'catalogue');
  await using _portal = dropped.portal;
  assertGoneQuietly(dropped.watched[0], dropped.logs, dropped.counted);
});
