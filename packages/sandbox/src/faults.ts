/** Fault injection: the next N requests of a scope fail in a chosen way. */

import type { SessionErrorCode } from '@form-embed/protocol';
import { checkFaultSpec } from './fault-spec-schema.js';

/**
 * Which requests a fault applies to: `api` every API request, `session` only the two
 * form-session endpoints, `redeem` only handle redemptions on the embed origins.
 */
export type FaultScope = 'api' | 'session' | 'redeem';

/** How a faulted request fails: `error`, `delay`, `reset`, `notJson` or `foreignEmbedUrl`. */
export type Fault =
  | {
      /** Answer with an error: a SessionError on the form-session endpoints, `{error}` elsewhere. */
      kind: 'error';
      /** A SessionError code (offered by editors), or any other string for a code the protocol lacks. */
      code: SessionErrorCode;
      /** Defaults to the code's status in the SessionError table, 400 for a code it lacks. */
      status?: number;
      /** Defaults to the code's retryable flag in the table, false for a code it lacks. */
      retryable?: boolean;
      /**
       * Sent as `Retry-After`: seconds, or a string such as an HTTP-date. On a 429 or 503 it
       * defaults to 1 s, as the service sends one; `null` sends none (a service breaking that).
       */
      retryAfter?: number | string | null;
      message?: string;
    }
  /** Wait before answering normally. */
  | { kind: 'delay'; delayMs: number }
  /** Destroy the connection without an answer. */
  | { kind: 'reset' }
  /** Answer with an HTML body instead of JSON. Status defaults to 200. */
  | { kind: 'notJson'; status?: number }
  /**
   * A successful mint whose embedUrl is on `origin` instead of the embed origin (a misbehaving
   * or hijacked upstream). Defaults to `https://foreign.example`. Only on the session endpoints:
   * its scope is `session`, the default for it.
   */
  | { kind: 'foreignEmbedUrl'; origin?: string };

/** What `control.fail(spec)` takes: a `Fault`, how many requests it hits and which. */
export type FaultSpec = Fault & {
  /** How many requests fail. Defaults to `1`. */
  count?: number;
  /** Defaults to `api` (`session` for `foreignEmbedUrl`, its only scope). */
  scope?: FaultScope;
};

interface PendingFault {
  fault: Fault;
  scope: FaultScope;
  remaining: number;
}

export class FaultQueue {
  #pending: PendingFault[] = [];

  /**
   * Arms a fault. Checks every field, since the HTTP control API passes its JSON body here as it
   * came: a field of the wrong type, or one the fault's kind does not have (a misspelt
   * `retryafter`), throws a TypeError naming it instead of arming a different fault.
   */
  add(spec: FaultSpec): void {
    const { count = 1, scope, ...fault } = checkFaultSpec(spec);
    // A foreign embedUrl is a mint's answer: armed on `api`, a read would spend it first.
    const defaultScope = fault.kind === 'foreignEmbedUrl' ? 'session' : 'api';
    this.#pending.push({ fault: fault as Fault, scope: scope ?? defaultScope, remaining: count });
  }

  /** The fault for this request, if one is pending for its scope; counts it down. */
  take(scopes: readonly FaultScope[]): Fault | undefined {
    const index = this.#pending.findIndex((p) => scopes.includes(p.scope));
    const pending = this.#pending[index];
    if (!pending) return undefined;
    pending.remaining -= 1;
    if (pending.remaining === 0) this.#pending.splice(index, 1);
    return pending.fault;
  }

  /** How many requests of each scope the pending faults will still fail. */
  remaining(): Record<FaultScope, number> {
    const counts: Record<FaultScope, number> = { api: 0, session: 0, redeem: 0 };
    for (const { scope, remaining } of this.#pending) counts[scope] += remaining;
    return counts;
  }

  clear(): void {
    this.#pending = [];
  }
}
