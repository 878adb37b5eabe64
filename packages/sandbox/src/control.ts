import type { EmbedOrigins } from '@form-embed/protocol';
import type { FaultScope, FaultSpec } from './faults.js';
import { apiKeys } from './fixtures.js';
import { type MicrosoftConnection, parseMicrosoftConnection } from './microsoft-connection.js';
import type { EmbedOriginKind } from './page-forms.js';
import type { LimitKind } from './rate-limits.js';
import type { SandboxState } from './sandbox-state.js';
import type { StoreStats } from './session-store.js';

/** Drives the sandbox from a test or the demo: org state, faults, clocks and counters. */
export interface SandboxControl {
  /** Every session lapses now; its page notices on the next reload, submit or lookup. */
  expireSessions(): void;
  /**
   * Moves the sandbox's clock forward by `seconds`: handles, sessions and rate-limit buckets age
   * as if that much time had passed (121 s makes a fresh handle too old, 1801 s lapses a
   * session, 0.5 s gives a key one mint back and 60 s its whole burst). Latency and delay faults
   * stay real waits. `reset()` returns to wall time.
   */
  advanceClock(seconds: number): void;
  /** The next `count` requests of `scope` fail as described (see `FaultSpec`). */
  fail(fault: FaultSpec): void;
  /** How many requests of each scope the faults armed by `fail` will still fail. */
  pendingFaults(): Record<FaultScope, number>;
  /** Sets the organisation's Microsoft connection: `ok`, `broken` or `throttled`. */
  setMicrosoftConnection(connection: MicrosoftConnection): void;
  /**
   * Empties every key's bucket of a limit and keeps it empty for a minute of the sandbox's clock,
   * as if the key's other users took each token as it came: such requests answer 429 with
   * `Retry-After: 60` (less as the clock moves), and `advanceClock(60)` gives one back.
   */
  exhaustRateLimit(kind: LimitKind): Promise<void>;
  /**
   * Milliseconds added before every API answer from now on. A held request is still on its way:
   * one whose client goes is dropped, and `reset()` closes the connections of those held then.
   */
  setLatency(ms: number): void;
  /** The milliseconds added before every API answer now: the last `setLatency`, or the start's. */
  latencyMs(): number;
  /**
   * The organisation changes its forms domain: a new listener starts on a new port and
   * `GET /api/v1/me` answers the new origin. The old origin keeps serving its sessions. At most
   * 16 new domains until `reset()` closes them. Rejects once `close()` has been called.
   */
  changeFormsDomain(kind?: EmbedOriginKind): Promise<EmbedOrigins>;
  /**
   * The organisation's current embed origins, as `GET /api/v1/me` answers them, read without a
   * request: no limit, fault or latency applies (a page's Content-Security-Policy needs them).
   */
  embedOrigins(): EmbedOrigins;
  /** Requests received per route, keyed `METHOD /path/template` (e.g. `GET /api/v1/me`). */
  stats(): Record<string, number>;
  /**
   * Requests to be held (latency, a delay fault) whose client went before their answer, while
   * held or already when they came to be: dropped, never answered. A test waits on it to know
   * that a request a page or proxy gave up reached here so.
   */
  droppedRequests(): number;
  /**
   * What the session store holds: handles not yet redeemed, sessions a page may still reach,
   * and lapsed sessions remembered for a late reload. All are pruned on each mint, on the
   * sandbox's clock (lapsed ones by count).
   */
  storeStats(): StoreStats;
  /**
   * Back to the start: no faults, connection ok, initial origins (the listeners of new forms
   * domains closed), wall time, counters, limits and sessions cleared. Requests held then (latency,
   * delay faults) belong to the test before: their connections are closed, as a `reset` fault does.
   */
  reset(): void;
}

export function createControl(
  state: SandboxState,
  listenEmbedOrigin: (kind: EmbedOriginKind) => Promise<string>,
  closeNewEmbedOrigins: () => Promise<void>,
): SandboxControl {
  return {
    expireSessions: () => state.sessions.expireAll(),
    advanceClock: (seconds) => state.clock.advance(seconds),
    fail: (fault) => state.faults.add(fault),
    pendingFaults: () => state.faults.remaining(),
    setMicrosoftConnection: (connection) => {
      state.microsoftConnection = parseMicrosoftConnection(connection);
    },
    exhaustRateLimit: async (kind) => {
      if (kind !== 'mints' && kind !== 'reads') throw new TypeError('kind must be mints or reads');
      state.limits.exhaust(kind, apiKeys.keys());
    },
    setLatency: (ms) => {
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) {
        throw new TypeError('ms must be a finite number of milliseconds >= 0');
      }
      state.latencyMs = ms;
    },
    latencyMs: () => state.latencyMs,
    changeFormsDomain: async (kind = 'forms') => {
      if (kind !== 'forms' && kind !== 'coreForms') {
        throw new TypeError('kind must be forms or coreForms');
      }
      const origin = await listenEmbedOrigin(kind);
      state.origins = {
        ...state.origins,
        [kind === 'forms' ? 'formsOrigin' : 'coreFormsOrigin']: origin,
      };
      return { ...state.origins };
    },
    embedOrigins: () => ({ ...state.origins }),
    stats: () => state.requestCounts(),
    droppedRequests: () => state.droppedCount(),
    storeStats: () => state.sessions.counts(),
    reset: () => {
      state.reset();
      // The origins are back to the first ones: the listeners of the new domains go too.
      void closeNewEmbedOrigins();
    },
  };
}
