/**
 * The HTTP control API's actions, in one table that the server's router (control-router.ts)
 * and the typed client (control-client.ts) both read: each action's path segment, how the
 * client writes its arguments as a JSON body, and how the router runs it from that body. So
 * the two cannot drift, and each method of `SandboxControl` needs an action here (or is named
 * in `InProcessOnly`). Browser-safe: it imports types only.
 */
import type { SandboxControl } from './control.js';
import type { FaultScope, FaultSpec } from './faults.js';
import type { MicrosoftConnection } from './microsoft-connection.js';
import type { EmbedOriginKind } from './page-forms.js';
import type { LimitKind } from './rate-limits.js';
import type { StoreStats } from './session-store.js';

type Body = Record<string, unknown>;

/** What `stats` answers over HTTP: the in-process counters and the latency at once. */
export interface ControlStats {
  /** `control.stats()`: requests per route. */
  requests: Record<string, number>;
  /** `control.storeStats()`. */
  store: StoreStats;
  /** `control.pendingFaults()`. */
  faults: Record<FaultScope, number>;
  /** `control.latencyMs()`: a page that reloads reads what a control box should show. */
  latencyMs: number;
  /** `control.droppedRequests()`. */
  dropped: number;
}

/** Methods with no action of their own: `stats` answers all but the first, which needs none. */
type InProcessOnly =
  | 'embedOrigins'
  | 'pendingFaults'
  | 'storeStats'
  | 'latencyMs'
  | 'droppedRequests';

/** The `sandbox.control` methods the HTTP control API (and `controlClient`) offers. */
export type ControlActionName = Exclude<keyof SandboxControl, InProcessOnly>;

type ControlActionTable = {
  [M in ControlActionName]: {
    /** `POST {baseUrl}/__sandbox/control/<path>`. */
    path: string;
    toBody(...args: Parameters<SandboxControl[M]>): Body;
    /**
     * The body's fields: the router refuses any other (400), so a misspelt one is not ignored.
     * `checked` when the method itself refuses the fields it does not know (`fail`, whose
     * fields depend on the fault's kind).
     */
    fields: readonly string[] | 'checked';
    run(control: SandboxControl, body: Body): unknown;
  };
};

export function statsOf(control: SandboxControl): ControlStats {
  return {
    requests: control.stats(),
    store: control.storeStats(),
    faults: control.pendingFaults(),
    latencyMs: control.latencyMs(),
    dropped: control.droppedRequests(),
  };
}

export const controlActions = {
  expireSessions: {
    path: 'expire-sessions',
    fields: [],
    toBody: () => ({}),
    run: (control) => control.expireSessions(),
  },
  advanceClock: {
    path: 'advance-clock',
    fields: ['seconds'],
    toBody: (seconds) => ({ seconds }),
    // The clock checks it (SandboxClock.advance): a finite number >= 0.
    run: (control, body) => control.advanceClock(body.seconds as number),
  },
  fail: {
    path: 'fail',
    fields: 'checked',
    toBody: (fault) => ({ ...fault }),
    // control.fail checks every field of the body (FaultQueue.add), unknown ones included.
    run: (control, body) => control.fail(body as unknown as FaultSpec),
  },
  setMicrosoftConnection: {
    path: 'microsoft-connection',
    fields: ['state', 'retryAfter'],
    toBody: (connection) => ({ ...connection }),
    // control.setMicrosoftConnection checks the body (parseMicrosoftConnection).
    run: (control, body) => control.setMicrosoftConnection(body as unknown as MicrosoftConnection),
  },
  exhaustRateLimit: {
    path: 'exhaust-rate-limit',
    fields: ['kind'],
    toBody: (kind) => ({ kind }),
    // control.exhaustRateLimit checks the kind.
    run: (control, body) => control.exhaustRateLimit(body.kind as LimitKind),
  },
  setLatency: {
    path: 'latency',
    fields: ['ms'],
    toBody: (ms) => ({ ms }),
    // control.setLatency checks it: a finite number >= 0, not a string or null read as one.
    run: (control, body) => control.setLatency(body.ms as number),
  },
  changeFormsDomain: {
    path: 'forms-domain',
    fields: ['kind'],
    toBody: (kind) => (kind === undefined ? {} : { kind }),
    // control.changeFormsDomain checks the kind (undefined is its default, forms).
    run: (control, body) => control.changeFormsDomain(body.kind as EmbedOriginKind | undefined),
  },
  stats: {
    path: 'stats',
    fields: [],
    toBody: () => ({}),
    run: (control): ControlStats => statsOf(control),
  },
  reset: {
    path: 'reset',
    fields: [],
    toBody: () => ({}),
    run: (control) => control.reset(),
  },
} satisfies ControlActionTable;
