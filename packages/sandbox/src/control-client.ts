/**
 * A typed client of the HTTP control API, for a test whose sandbox runs in another process
 * (`form-embed-sandbox --control` in Playwright's `webServer`). Its methods are the actions of
 * control-actions.ts, which the server's router reads too. Browser-safe: `fetch` only, so a
 * page on a `controlOrigins` origin may use it as well.
 */
import type { SandboxControl } from './control.js';
import { type ControlActionName, type ControlStats, controlActions } from './control-actions.js';
import { CONTROL_PATH } from './control-path.js';

export type { ControlActionName, ControlStats };

type Actions = typeof controlActions;

/**
 * `sandbox.control`'s methods over HTTP, each answering a promise: `stats()` answers
 * `{requests, store, faults, latencyMs, dropped}` (`control.stats()`, `storeStats()`,
 * `pendingFaults()`, `latencyMs()` and `droppedRequests()` at once).
 */
// The parameters are the in-process method's own, optional ones included: the table's `toBody`
// arrows, typed from context, would make `changeFormsDomain(kind?)`'s `kind` required.
export type ControlClient = {
  [M in ControlActionName]: (
    ...args: Parameters<SandboxControl[M]>
  ) => Promise<Awaited<ReturnType<Actions[M]['run']>>>;
};

/** Options of `controlClient(baseUrl, options)`. */
export interface ControlClientOptions {
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** A refused control request: its HTTP status and the sandbox's `{error}`. */
export class ControlApiError extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'ControlApiError';
    this.status = status;
  }
}

/**
 * A client of the control API of the sandbox at `baseUrl` (started with `controlApi: true`), its
 * origin: `sandbox.baseUrl`, with or without a trailing `/`.
 */
export function controlClient(baseUrl: string, options: ControlClientOptions = {}): ControlClient {
  const url = new URL(baseUrl);
  // The control API is at the root: under a path it would meet the API's 401 for an unknown
  // route, told below as a sandbox started without a control API.
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new TypeError(
      `controlClient: baseUrl must be the sandbox's origin (sandbox.baseUrl, e.g. http://127.0.0.1:4000), with no path, query or fragment: ${baseUrl}`,
    );
  }
  const base = url.origin;
  const root = `${base}${CONTROL_PATH}`;
  const client: Partial<Record<ControlActionName, (...args: never[]) => Promise<unknown>>> = {};
  for (const [name, action] of Object.entries(controlActions)) {
    client[name as ControlActionName] = async (...args: never[]) => {
      const send = options.fetch ?? fetch;
      const response = await send(`${root}/${action.path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify((action.toBody as (...a: never[]) => unknown)(...args)),
      });
      const answer: unknown = await response.json().catch(() => undefined);
      if (!response.ok) throw refusal(base, action.path, response.status, answer);
      const { ok: _ok, ...result } = (answer ?? {}) as Record<string, unknown>;
      return Object.keys(result).length > 0 ? result : undefined;
    };
  }
  return client as ControlClient;
}

function refusal(base: string, path: string, status: number, answer: unknown): ControlApiError {
  // Without controlApi the control path is an unknown route of the API: 401 without a key. The
  // control API itself never answers 401, so that is all a 401 can mean (the API's own message,
  // "Missing API key", would only send the caller off adding one).
  if (status === 401) {
    return new ControlApiError(
      status,
      `sandbox control ${path}: 401: the sandbox at ${base} serves no control API; start it with --control (controlApi: true)`,
    );
  }
  const error = (answer as { error?: unknown } | undefined)?.error;
  const said = typeof error === 'string' ? error : 'no {error} in the answer';
  return new ControlApiError(status, `sandbox control ${path}: ${status} ${said}`);
}
