import { setMaxListeners } from 'node:events';
import type { EmbedOrigins } from '@form-embed/protocol';
import { type FaultQueue, FaultQueue as Faults } from './faults.js';
import type { HeldMicrosoftConnection } from './microsoft-connection.js';
import type { SandboxConfig } from './options.js';
import { RateLimits } from './rate-limits.js';
import { SandboxClock } from './sandbox-clock.js';
import { SessionStore } from './session-store.js';

/** Everything that changes while the sandbox runs; shared by the API, the pages and `control`. */
export class SandboxState {
  readonly config: SandboxConfig;
  readonly clock = new SandboxClock();
  readonly sessions: SessionStore;
  readonly limits: RateLimits;
  readonly faults: FaultQueue = new Faults();
  microsoftConnection: HeldMicrosoftConnection = { state: 'ok' };
  latencyMs: number;
  /** The organisation's current embed origins (what `GET /api/v1/me` answers). */
  origins: EmbedOrigins;
  readonly initialOrigins: EmbedOrigins;
  #requests = new Map<string, number>();
  #dropped = 0;
  #held = heldController();

  constructor(config: SandboxConfig, origins: EmbedOrigins) {
    this.config = config;
    this.sessions = new SessionStore(config, () => this.clock.now());
    this.limits = new RateLimits(config.limits, () => this.clock.now());
    this.latencyMs = config.latencyMs;
    this.origins = { ...origins };
    this.initialOrigins = { ...origins };
  }

  countRequest(route: string): void {
    this.#requests.set(route, (this.#requests.get(route) ?? 0) + 1);
  }

  /** A held request's client went before its answer: it was dropped, never answered. */
  countDropped(): void {
    this.#dropped += 1;
  }

  droppedCount(): number {
    return this.#dropped;
  }

  /** Aborted by `reset()`: the requests held then (latency, delay faults) end with it. */
  get heldSignal(): AbortSignal {
    return this.#held.signal;
  }

  requestCounts(): Record<string, number> {
    return Object.fromEntries(this.#requests);
  }

  reset(): void {
    this.#held.abort();
    this.#held = heldController();
    this.faults.clear();
    this.microsoftConnection = { state: 'ok' };
    this.latencyMs = this.config.latencyMs;
    this.origins = { ...this.initialOrigins };
    this.#requests.clear();
    this.#dropped = 0;
    this.limits.reset();
    this.sessions.clear();
    this.clock.reset();
  }
}

/** The controller `reset()` aborts: each request held listens to its signal, with no limit. */
function heldController(): AbortController {
  const controller = new AbortController();
  setMaxListeners(0, controller.signal);
  return controller;
}
