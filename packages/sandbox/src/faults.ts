/** Fault injection: the next N requests of a scope fail in a chosen way. */

import type { SessionErrorCode } from '@form-embed/protocol';

/**
 * Which requests a fault applies to: `api` every API request, `session` only the two
 * form-session endpoints, `redeem` only handle redemptions on the embed origins.
 */
export type FaultScope = 'api' | 'session' | 'redeem';

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
   * or hijacked upstream). Defaults to `https://foreign.example`. Only on the session endpoints.
   */
  | { kind: 'foreignEmbedUrl'; origin?: string };

export type FaultSpec = Fault & {
  /** How many requests fail. Defaults to `1`. */
  count?: number;
  /** Defaults to `api`. */
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
    const { count = 1, scope = 'api', ...fault } = checkFaultSpec(spec);
    this.#pending.push({ fault: fault as Fault, scope, remaining: count });
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

/** The fields each kind of fault may have, beside `kind`, `count` and `scope`. */
const FAULT_FIELDS: Record<Fault['kind'], readonly string[]> = {
  error: ['code', 'status', 'retryable', 'retryAfter', 'message'],
  delay: ['delayMs'],
  reset: [],
  notJson: ['status'],
  foreignEmbedUrl: ['origin'],
};

function checkFaultSpec(spec: unknown): FaultSpec {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    throw new TypeError('a fault must be an object');
  }
  const input = spec as Record<string, unknown>;
  const { count, scope, kind } = input;
  if (count !== undefined && (!Number.isInteger(count) || (count as number) < 1)) {
    throw new TypeError('fault count must be a whole number >= 1');
  }
  if (scope !== undefined && scope !== 'api' && scope !== 'session' && scope !== 'redeem') {
    throw new TypeError('fault scope must be api, session or redeem');
  }
  if (typeof kind !== 'string' || !Object.hasOwn(FAULT_FIELDS, kind)) {
    throw new TypeError('fault kind must be error, delay, reset, notJson or foreignEmbedUrl');
  }
  const fields = FAULT_FIELDS[kind as Fault['kind']];
  for (const name of Object.keys(input)) {
    if (name !== 'kind' && name !== 'count' && name !== 'scope' && !fields.includes(name)) {
      throw new TypeError(`fault kind ${kind} has no field ${name}`);
    }
  }
  const { code, status, retryable, retryAfter, message, delayMs, origin } = input;
  if (kind === 'error' && (typeof code !== 'string' || code === '')) {
    throw new TypeError('an error fault needs a code (a non-empty string)');
  }
  if (kind === 'delay' && !isFiniteAtLeast0(delayMs)) {
    throw new TypeError('a delay fault needs delayMs, a finite number >= 0');
  }
  if (status !== undefined && !(Number.isInteger(status) && isBetween(status, 200, 599))) {
    throw new TypeError('fault status must be a whole number from 200 to 599');
  }
  if (retryable !== undefined && typeof retryable !== 'boolean') {
    throw new TypeError('fault retryable must be true or false');
  }
  if (
    retryAfter !== undefined &&
    retryAfter !== null &&
    !isFiniteAtLeast0(retryAfter) &&
    !(typeof retryAfter === 'string' && HEADER_VALUE.test(retryAfter))
  ) {
    throw new TypeError(
      'fault retryAfter must be seconds (a finite number >= 0), a header value such as an HTTP-date, or null',
    );
  }
  if (message !== undefined && typeof message !== 'string') {
    throw new TypeError('fault message must be a string');
  }
  if (origin !== undefined && typeof origin !== 'string') {
    throw new TypeError('fault origin must be a string, such as https://foreign.example');
  }
  return input as FaultSpec;
}

/** What Node sends as a header value: visible ASCII, spaces and tabs (no line break). */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

function isFiniteAtLeast0(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isBetween(value: unknown, low: number, high: number): boolean {
  return typeof value === 'number' && value >= low && value <= high;
}
