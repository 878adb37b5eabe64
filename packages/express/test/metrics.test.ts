import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { metrics } from '@opentelemetry/api';
import {
  AggregationTemporality,
  type DataPoint,
  type Histogram,
  InMemoryMetricExporter,
  MeterProvider,
  type MetricData,
  PeriodicExportingMetricReader,
} from '@opentelemetry/sdk-metrics';
import FakeTimers from '@sinonjs/fake-timers';
import { mountMiddleware } from './helpers/harness.js';
import { SecretWatch } from './helpers/secret-watch.js';
import { settlesWithin } from './helpers/settles.js';

const watch = new SecretWatch();
let sandbox: Sandbox;
const microsoftForm = { kind: 'form', formId: fixtureIds.forms.microsoft } as const;
const coreForm = { kind: 'coreForm', slug: fixtureIds.coreForms.newStarter } as const;

before(async () => {
  sandbox = await startSandbox();
});

after(async () => {
  metrics.disable();
  await sandbox.close();
  await watch.assertNoSecret([sandbox.apiKey]);
});

/** The exported points of `name`, each as its attributes plus its value (a sum, or a histogram's count). */
/**
 * Registers an SDK meter provider, as a portal does after creating the middleware (replacing any
 * earlier one), and returns what reads its export so far.
 */
function registerSdk() {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  metrics.disable(); // the API keeps the first provider registered otherwise
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return async () => {
    await reader.forceFlush();
    return exporter.getMetrics().at(-1)?.scopeMetrics ?? [];
  };
}

function pointsOf(all: MetricData[], name: string): Record<string, unknown>[] {
  const metric = all.find((data) => data.descriptor.name === name);
  assert.ok(metric, `no metric ${name} among ${all.map((data) => data.descriptor.name)}`);
  return (metric.dataPoints as DataPoint<number | Histogram>[]).map((point) => ({
    ...point.attributes,
    value: typeof point.value === 'number' ? point.value : point.value.count,
  }));
}

/** The upstream durations of form-session requests. */
function formSessionPoints(all: MetricData[]) {
  return pointsOf(all, 'form_embed.upstream.duration').filter(
    (point) => point['form_embed.upstream.endpoint'] === 'formSession',
  );
}

/** One form-session request's upstream duration point, with `attributes` besides. */
function formSessionPoint(attributes: Record<string, unknown>) {
  return {
    'form_embed.upstream.endpoint': 'formSession',
    'http.request.method': 'POST',
    value: 1,
    ...attributes,
  };
}

describe('metrics through the OpenTelemetry API', () => {
  test('an SDK registered after the middleware is created sees mints by kind and outcome, limit refusals and upstream durations, with no user, handle or key in any attribute', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 2 },
    });
    const exported = registerSdk();
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    sandbox.control.fail({ kind: 'error', code: 'unavailable', scope: 'session' });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 503);
    assert.equal((await portal.mint(coreForm, { session: 'adele' })).status, 429);
    const scopes = await exported();
    assert.deepEqual(
      scopes.map((scope) => scope.scope.name),
      ['@form-embed/express'],
    );
    const all = scopes.flatMap((scope) => scope.metrics);

    const mints = pointsOf(all, 'form_embed.mints');
    assert.deepEqual(
      new Set(mints),
      new Set([
        {
          'form_embed.form.kind': 'form',
          'form_embed.outcome': 'ok',
          'http.response.status_code': 200,
          value: 1,
        },
        {
          'form_embed.form.kind': 'form',
          'form_embed.outcome': 'unavailable',
          'error.type': 'unavailable',
          'http.response.status_code': 503,
          value: 1,
        },
        {
          'form_embed.form.kind': 'coreForm',
          'form_embed.outcome': 'rate_limited',
          'error.type': 'rate_limited',
          'http.response.status_code': 429,
          value: 1,
        },
      ]),
    );
    assert.deepEqual(
      new Set(pointsOf(all, 'form_embed.mint.duration')),
      new Set(mints),
      'each mint is timed too, under the attributes it is counted with',
    );
    assert.deepEqual(pointsOf(all, 'form_embed.limit.refusals'), [
      { 'form_embed.limit.name': 'mint', 'form_embed.limit.subject': 'user', value: 1 },
    ]);
    assert.deepEqual(
      new Set(formSessionPoints(all)),
      new Set([
        formSessionPoint({ 'http.response.status_code': 200 }),
        formSessionPoint({ 'http.response.status_code': 503, 'error.type': '503' }),
      ]),
      'a 5xx answer has its status as error.type, a success none',
    );
    // GET /me is not among them: it is sent when the middleware is created, before this SDK.
    const everything = JSON.stringify(all);
    for (const secret of [sandbox.apiKey, fixtureIds.users.adele, fixtureIds.clients.contoso]) {
      assert.ok(!everything.includes(secret), `${secret} is in an exported metric`);
    }
    for (const handle of watch.handles) assert.ok(!everything.includes(handle));
  });

  test("an upstream request never answered is timed with error.type timeout, and a 4xx answer, which is the service's refusal and not its failure, with none", async (t) => {
    let reachedUpstream: () => void = () => {};
    const upstreamReached = new Promise<void>((resolve) => {
      reachedUpstream = resolve;
    });
    let hang = false;
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      timeoutMs: 300,
      // Once `hang` is set, the form-session request never answers until it is aborted.
      fetch: (input, init) => {
        if (!hang || !String(input).endsWith('/session')) return fetch(input, init);
        reachedUpstream();
        return new Promise((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        });
      },
    });
    const exported = registerSdk();
    sandbox.control.fail({ kind: 'error', code: 'form_not_found', scope: 'session' });
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 404);
    // Only the middleware's own timers: sockets and the portal's server keep real time.
    const clock = FakeTimers.install({
      toFake: ['setTimeout', 'clearTimeout'],
      shouldClearNativeTimers: true,
    });
    t.after(() => clock.uninstall()); // should the test fail before it does
    hang = true;
    const answered = portal.mint(microsoftForm, { session: 'adele' });
    await upstreamReached;
    await clock.tickAsync(300);
    assert.ok(await settlesWithin(answered), 'answered once timeoutMs has passed');
    clock.uninstall(); // the SDK's flush keeps time with real timers
    assert.equal((await answered).status, 503);
    const all = (await exported()).flatMap((scope) => scope.metrics);
    assert.deepEqual(
      new Set(formSessionPoints(all)),
      new Set([
        formSessionPoint({ 'http.response.status_code': 404 }),
        formSessionPoint({ 'error.type': 'timeout' }),
      ]),
    );
  });

  test('a refusal by the count all signed-out mints share is its own series: signedOutMint, signed_out', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { signedOutMints: 1 },
    });
    const exported = registerSdk();
    const openForm = { kind: 'form', formId: fixtureIds.forms.open } as const;
    assert.equal((await portal.mint(openForm)).status, 200);
    assert.equal((await portal.mint(openForm)).status, 429);
    const all = (await exported()).flatMap((scope) => scope.metrics);
    assert.deepEqual(pointsOf(all, 'form_embed.limit.refusals'), [
      {
        'form_embed.limit.name': 'signedOutMint',
        'form_embed.limit.subject': 'signed_out',
        value: 1,
      },
    ]);
  });

  test('a mint refused as cross-site (a proxy trust proxy does not know) is counted, forbidden, by its kind', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const exported = registerSdk();
    // What a portal behind a TLS-terminating proxy sees with trust proxy unset: its own page's
    // origin is https, the request as Express reads it is http.
    const headers = { origin: 'https://portal.example', 'x-forwarded-proto': 'https' };
    assert.equal((await portal.mint(microsoftForm, { session: 'adele', headers })).status, 403);
    assert.equal((await portal.mint(coreForm, { session: 'adele', headers })).status, 403);
    assert.equal((await portal.request('/forms', { session: 'adele', headers })).status, 403);
    const all = (await exported()).flatMap((scope) => scope.metrics);
    const forbidden = (kind: string) => ({
      'form_embed.form.kind': kind,
      'form_embed.outcome': 'forbidden',
      'error.type': 'forbidden',
      'http.response.status_code': 403,
      value: 1,
    });
    assert.deepEqual(
      new Set(pointsOf(all, 'form_embed.mints')),
      new Set([forbidden('form'), forbidden('coreForm')]),
    );
  });

  test('a request refused as cross-site is counted as the router would have matched it: the catalogue as HEAD, with a trailing slash or in capitals, a mint with a trailing slash or in capitals; another method on a mint path is no mint', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const exported = registerSdk();
    const headers = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' };
    const formPath = `/forms/${microsoftForm.formId}/session`;
    const refused = async (method: string, path: string) =>
      (await portal.request(path, { method, session: 'adele', headers })).status;
    assert.deepEqual(
      [
        await refused('HEAD', '/forms'),
        await refused('GET', '/forms/'),
        await refused('GET', '/FORMS'),
        await refused('POST', `${formPath}/`),
        await refused('POST', `/Core-Forms/${coreForm.slug}/Session`),
        await refused('PUT', formPath),
      ],
      [403, 403, 403, 403, 403, 403],
    );
    const all = (await exported()).flatMap((scope) => scope.metrics);
    const forbidden = { 'form_embed.outcome': 'forbidden', 'error.type': 'forbidden' };
    assert.deepEqual(pointsOf(all, 'form_embed.catalogue.requests'), [
      { ...forbidden, 'http.response.status_code': 403, value: 3 },
    ]);
    assert.deepEqual(
      new Set(pointsOf(all, 'form_embed.mints')),
      new Set([
        {
          'form_embed.form.kind': 'form',
          ...forbidden,
          'http.response.status_code': 403,
          value: 1,
        },
        {
          'form_embed.form.kind': 'coreForm',
          ...forbidden,
          'http.response.status_code': 403,
          value: 1,
        },
      ]),
      'the PUT is not counted as a mint',
    );
  });

  test('a mint is timed from its route to its answer, not from some earlier moment', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const exported = registerSdk();
    const startedAt = performance.now();
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    const elapsedS = (performance.now() - startedAt) / 1000;
    const all = (await exported()).flatMap((scope) => scope.metrics);
    const duration = all.find((data) => data.descriptor.name === 'form_embed.mint.duration');
    const points = (duration?.dataPoints ?? []) as DataPoint<Histogram>[];
    assert.equal(points.length, 1);
    const timed = points[0]?.value.sum ?? Number.NaN;
    assert.ok(timed > 0 && timed <= elapsedS, `timed ${timed} s of a mint that took ${elapsedS} s`);
  });

  test("each instrument has the README's unit, and every duration is in seconds with OpenTelemetry's HTTP buckets, the service's round trip too", async () => {
    // Before the mount: its read of the embed origins, still out when the SDK is registered, is
    // timed among the upstream durations.
    const startedAt = performance.now();
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { mints: 1 },
    });
    const exported = registerSdk();
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 200);
    assert.equal((await portal.mint(microsoftForm, { session: 'adele' })).status, 429);
    const elapsedS = (performance.now() - startedAt) / 1000;
    const all = (await exported()).flatMap((scope) => scope.metrics);
    const units = Object.fromEntries(
      all.map((data) => [data.descriptor.name, data.descriptor.unit]),
    );
    assert.deepEqual(units, {
      'form_embed.mints': '{mint}',
      'form_embed.mint.duration': 's',
      'form_embed.catalogue.requests': '{request}',
      'form_embed.catalogue.duration': 's',
      'form_embed.upstream.duration': 's',
      'form_embed.limit.refusals': '{request}',
    });
    // The semantic conventions' http.server.request.duration and http.client.request.duration.
    const httpBuckets = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10];
    for (const name of [
      'form_embed.mint.duration',
      'form_embed.catalogue.duration',
      'form_embed.upstream.duration',
    ]) {
      const points = (all.find((data) => data.descriptor.name === name)?.dataPoints ??
        []) as DataPoint<Histogram>[];
      assert.ok(points.length > 0, name);
      for (const point of points) {
        assert.deepEqual(point.value.buckets.boundaries, httpBuckets, name);
        // In seconds: a request that took milliseconds is timed as a fraction of one.
        const mean = (point.value.sum ?? Number.NaN) / point.value.count;
        assert.ok(mean > 0 && mean <= elapsedS, `${name}: ${mean} s, within ${elapsedS} s`);
      }
    }
  });

  test('every catalogue request answered is counted and timed by outcome: ok (a cached one too), a service failure, and refusals by the limit, as cross-site and as signed out', async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { catalogue: 3 },
    });
    const exported = registerSdk();
    // The key refused on the first read of a cold cache (forms, coreForms or the user's client).
    sandbox.control.fail({ kind: 'error', code: 'invalid_api_key', status: 401, scope: 'api' });
    const failed = await portal.request('/forms', { session: 'adele' });
    assert.equal(failed.status, 401, failed.text);
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 200);
    const readsSoFar = portal.upstream.length;
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 200);
    assert.equal(portal.upstream.length, readsSoFar, 'the third menu is answered from the cache');
    assert.equal((await portal.request('/forms', { session: 'adele' })).status, 429);
    assert.equal((await portal.request('/forms')).status, 401);
    const headers = { origin: 'https://elsewhere.example', 'sec-fetch-site': 'cross-site' };
    assert.equal((await portal.request('/forms', { session: 'adele', headers })).status, 403);
    const all = (await exported()).flatMap((scope) => scope.metrics);
    const failure = (code: string, status: number) => ({
      'form_embed.outcome': code,
      'error.type': code,
      'http.response.status_code': status,
      value: 1,
    });
    const requests = pointsOf(all, 'form_embed.catalogue.requests');
    assert.deepEqual(
      new Set(requests),
      new Set([
        { 'form_embed.outcome': 'ok', 'http.response.status_code': 200, value: 2 },
        failure('invalid_api_key', 401),
        failure('rate_limited', 429),
        failure('sign_in_required', 401),
        failure('forbidden', 403),
      ]),
    );
    assert.deepEqual(
      new Set(pointsOf(all, 'form_embed.catalogue.duration')),
      new Set(requests),
      'each catalogue request is timed too, under the attributes it is counted with',
    );
    assert.ok(
      all.every((data) => data.descriptor.name !== 'form_embed.mints'),
      'no catalogue request is counted as a mint',
    );
  });

  test('requests a limit could not count (limit.store down) are counted by limit and outcome: passed on, or refused', async () => {
    const downStore = () => ({
      increment: () => Promise.reject(new Error('ECONNREFUSED')),
      decrement: async () => {},
      resetKey: async () => {},
    });
    await using passing = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { store: downStore(), prefix: 'passing:' },
    });
    await using refusing = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      limit: { store: downStore(), prefix: 'refusing:', passOnStoreError: false },
    });
    const exported = registerSdk();
    assert.equal((await passing.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal((await passing.mint(microsoftForm, { session: 'adele' })).status, 200);
    assert.equal((await refusing.mint(microsoftForm, { session: 'adele' })).status, 503);
    const all = (await exported()).flatMap((scope) => scope.metrics);
    assert.deepEqual(
      new Set(pointsOf(all, 'form_embed.limit.uncounted')),
      new Set([
        { 'form_embed.limit.name': 'mint', 'form_embed.limit.store_outcome': 'passed', value: 2 },
        { 'form_embed.limit.name': 'mint', 'form_embed.limit.store_outcome': 'refused', value: 1 },
      ]),
    );
  });

  test("codes the service added after this release count as one outcome, new_code: the service's codes cannot grow the series", async () => {
    await using portal = await mountMiddleware(watch, {
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
    });
    const exported = registerSdk();
    for (const code of ['seat_limit_reached', 'order_4711_held', 'order_4712_held']) {
      sandbox.control.fail({ kind: 'error', code, status: 409, scope: 'session' });
      const answer = await portal.mint(microsoftForm, { session: 'adele' });
      assert.equal(answer.status, 409, answer.text);
      assert.match(answer.text, new RegExp(code), 'the browser still gets the code');
    }
    const all = (await exported()).flatMap((scope) => scope.metrics);
    assert.deepEqual(pointsOf(all, 'form_embed.mints'), [
      {
        'form_embed.form.kind': 'form',
        'form_embed.outcome': 'new_code',
        'error.type': 'new_code',
        'http.response.status_code': 409,
        value: 3,
      },
    ]);
  });
});
