import { type FormTarget, isKnownSessionErrorCode, isPortalErrorCode } from '@form-embed/protocol';
import {
  type Attributes,
  type Counter,
  type Histogram,
  type Meter,
  type MeterProvider,
  metrics,
} from '@opentelemetry/api';
import type { LimitName } from './limit-key.js';

/** The meter's name: the instrumentation scope an SDK shows these instruments under. */
const METER_NAME = '@form-embed/express';

/** The instruments and their attributes, as the README lists them. None carries a user, handle or key. */
const MetricNames = {
  mints: 'form_embed.mints',
  mintDuration: 'form_embed.mint.duration',
  catalogueRequests: 'form_embed.catalogue.requests',
  catalogueDuration: 'form_embed.catalogue.duration',
  upstreamDuration: 'form_embed.upstream.duration',
  limitRefusals: 'form_embed.limit.refusals',
  limitUncounted: 'form_embed.limit.uncounted',
} as const;

/** The two instruments of one kind of answered request: how many, and how long each took. */
interface AnswerInstruments {
  count: Counter;
  duration: Histogram;
}

interface Instruments {
  mints: AnswerInstruments;
  catalogue: AnswerInstruments;
  upstreamDuration: Histogram;
  limitRefusals: Counter;
  limitUncounted: Counter;
}

// OpenTelemetry's bucket boundaries for HTTP durations, in seconds.
const DURATION_BUCKETS = [
  0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10,
];

let provider: MeterProvider | undefined;
let instruments: Instruments | undefined;

/**
 * The instruments of the meter provider registered now. Taken on first use and again whenever
 * the global provider changes, so a portal may register its SDK after creating the middleware;
 * until it does, the API's no-op provider makes every record free.
 */
function current(): Instruments {
  const now = metrics.getMeterProvider();
  if (instruments === undefined || now !== provider) {
    provider = now;
    const meter = now.getMeter(METER_NAME);
    instruments = {
      mints: answerInstruments(meter, [MetricNames.mints, MetricNames.mintDuration], {
        count: 'Form-session mint requests answered, by form kind and outcome.',
        unit: '{mint}',
        duration:
          'Duration of mint requests, from the route to the answer (the user, the limits, the service), by form kind and outcome.',
      }),
      catalogue: answerInstruments(
        meter,
        [MetricNames.catalogueRequests, MetricNames.catalogueDuration],
        {
          count: 'Catalogue (GET /forms) requests answered, by outcome.',
          unit: '{request}',
          duration:
            'Duration of catalogue requests, from the route to the answer (the user, the limit, the reads or their cache, authorize), by outcome.',
        },
      ),
      upstreamDuration: meter.createHistogram(MetricNames.upstreamDuration, {
        description: "Duration of requests to the service's API, until the answer is read.",
        unit: 's',
        advice: { explicitBucketBoundaries: DURATION_BUCKETS },
      }),
      limitRefusals: meter.createCounter(MetricNames.limitRefusals, {
        description: 'Requests refused by a limit of the middleware.',
        unit: '{request}',
      }),
      limitUncounted: meter.createCounter(MetricNames.limitUncounted, {
        description:
          'Requests a limit did not count because limit.store failed or was late: passed on, or refused (limit.passOnStoreError false).',
        unit: '{request}',
      }),
    };
  }
  return instruments;
}

/** What an answered request asked for, as counted: a mint of a form of that kind, or the catalogue. */
export type AnsweredRequest = FormTarget['kind'] | 'catalogue';

/** The counter and the duration histogram of one kind of answered request, in seconds. */
function answerInstruments(
  meter: Meter,
  [countName, durationName]: [string, string],
  { count, unit, duration }: { count: string; unit: string; duration: string },
): AnswerInstruments {
  return {
    count: meter.createCounter(countName, { description: count, unit }),
    duration: meter.createHistogram(durationName, {
      description: duration,
      unit: 's',
      advice: { explicitBucketBoundaries: DURATION_BUCKETS },
    }),
  };
}

/** The outcome of a request whose browser went before its answer (nginx's name for it). */
export const CLIENT_CLOSED = 'client_closed_request';

/**
 * One answered mint (`form_embed.mints`) or catalogue request (`form_embed.catalogue.requests`):
 * `outcome` is `ok`, the SessionError code answered, or `client_closed_request` with no status
 * (nothing was answered). A code the service added after this release counts as `new_code`: the
 * service picks those, so they would make a series each (the browser still gets the code itself).
 */
export function recordAnswer(
  request: AnsweredRequest,
  answered: string,
  status: number | undefined,
  startedAt: number,
): void {
  const outcome =
    answered === 'ok' ||
    answered === CLIENT_CLOSED ||
    isKnownSessionErrorCode(answered) ||
    isPortalErrorCode(answered)
      ? answered
      : 'new_code';
  const attributes: Attributes = { 'form_embed.outcome': outcome };
  if (status !== undefined) attributes['http.response.status_code'] = status;
  if (outcome !== 'ok') attributes['error.type'] = outcome;
  if (request !== 'catalogue') attributes['form_embed.form.kind'] = request;
  const { count, duration } = request === 'catalogue' ? current().catalogue : current().mints;
  count.add(1, attributes);
  duration.record((performance.now() - startedAt) / 1000, attributes);
}

/**
 * One request to the service: `route` is its `paths` name (`formSession`, `me`, ...), the metric's
 * `form_embed.upstream.endpoint`, and `status` the answer's status, or why none was read
 * (`timeout`, `network`, or `redirect`, which fetch refuses unread).
 */
export function recordUpstream(
  route: string,
  method: string,
  startedAt: number,
  status: number | 'timeout' | 'network' | 'redirect',
): void {
  const attributes: Attributes = {
    'form_embed.upstream.endpoint': route,
    'http.request.method': method,
  };
  if (typeof status === 'number') attributes['http.response.status_code'] = status;
  if (typeof status !== 'number' || status >= 500) attributes['error.type'] = String(status);
  current().upstreamDuration.record((performance.now() - startedAt) / 1000, attributes);
}

/**
 * One request refused by a limit: `subject` says whether a user, a client address, or everyone
 * signed out was counted.
 */
export function recordLimitRefusal(
  limit: LimitName,
  subject: 'user' | 'address' | 'signed_out',
): void {
  current().limitRefusals.add(1, {
    'form_embed.limit.name': limit,
    'form_embed.limit.subject': subject,
  });
}

/**
 * One request a limit did not count, `limit.store` having failed or been late: let through, or
 * refused with `unavailable` when `limit.passOnStoreError` is false. The outage itself is logged
 * once; this is what an alert counts.
 */
export function recordUncounted(limit: LimitName, passed: boolean): void {
  current().limitUncounted.add(1, {
    'form_embed.limit.name': limit,
    'form_embed.limit.store_outcome': passed ? 'passed' : 'refused',
  });
}
