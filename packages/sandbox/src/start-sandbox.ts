import type { RequestListener } from 'node:http';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApiApp } from './api-app.js';
import { createControl, type SandboxControl } from './control.js';
import { createEmbedOriginApp, type EmbedOriginKind } from './embed-origin-app.js';
import { fixtureKeys } from './fixtures.js';
import { parseOptions, type SandboxOptions } from './options.js';
import { SandboxState } from './sandbox-state.js';

declare global {
  /**
   * Node 20.19 (the oldest the sandbox runs on) has `Symbol.asyncDispose`; declared here as
   * `@types/node` and TypeScript's `esnext.disposable` lib declare it (the declarations merge),
   * so a project with neither, checking libraries (`skipLibCheck: false`), still reads
   * `Sandbox`'s types.
   */
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}

/** A running sandbox, as `startSandbox()` resolves it. */
export interface Sandbox {
  /** The API's base URL, e.g. `http://127.0.0.1:41234`. */
  readonly baseUrl: string;
  /** The designer forms embed origin at start (see `control.changeFormsDomain`). */
  readonly formsOrigin: string;
  /** The Core forms embed origin at start. */
  readonly coreFormsOrigin: string;
  /** The primary organisation's API key (`fixtureKeys.primary`). */
  readonly apiKey: string;
  /** Puts the sandbox in a state (faults, limits, the clock, ...), in process. */
  readonly control: SandboxControl;
  /** Stops every listener and drops open connections. */
  close(): Promise<void>;
  /**
   * `close()`, for `await using sandbox = await startSandbox()` (TypeScript 5.2 or newer): the
   * sandbox closes when the block ends, a thrown error included.
   */
  [Symbol.asyncDispose](): Promise<void>;
}

const HOST = '127.0.0.1';

/** How many new forms domains `changeFormsDomain` may open before a `reset()` closes them. */
const MAX_NEW_FORMS_DOMAINS = 16;

/**
 * How long an idle keep-alive connection stays open: about a minute, as behind a hosted
 * service's load balancer. Node's own 5 s races a client (undici, whose timers are coarse)
 * that reuses the connection just as the server drops it: the request fails ECONNRESET.
 */
const IDLE_CONNECTION_MS = 65_000;

const listenerCounts = new WeakMap<Sandbox, () => number>();

/**
 * How many listeners `sandbox.close()` would close now: 3, plus the new forms domains not yet
 * closed by `reset()`. For the package's own tests; index.ts does not export it.
 */
export function openListenerCount(sandbox: Sandbox): number {
  return listenerCounts.get(sandbox)?.() ?? 0;
}

/** Starts the API and the two embed origins, each on its own port of 127.0.0.1. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const config = parseOptions(options);
  const servers: Server[] = [];
  /** Set by close(): a forms domain opening then, or asked for later, is closed at once. */
  let closed = false;
  const listen = (handler: RequestListener | undefined, port: number) =>
    listenTracked(servers, handler, port);

  try {
    // Listen first so the apps know their origins; attach the handlers afterwards.
    const forms = await listen(undefined, config.formsPort);
    const core = await listen(undefined, config.coreFormsPort);
    const api = await listen(undefined, config.port);
    const state = new SandboxState(config, {
      formsOrigin: forms.origin,
      coreFormsOrigin: core.origin,
    });
    const newDomains = newFormsDomains(state, listen, () => closed);
    const control = createControl(state, newDomains.open, newDomains.closeAll);
    forms.server.on('request', createEmbedOriginApp(state, 'forms'));
    core.server.on('request', createEmbedOriginApp(state, 'coreForms'));
    api.server.on('request', createApiApp(state, control));
    const close = () => {
      closed = true;
      return closeAll(servers);
    };
    const sandbox: Sandbox = {
      baseUrl: api.origin,
      formsOrigin: forms.origin,
      coreFormsOrigin: core.origin,
      apiKey: fixtureKeys.primary,
      control,
      close,
      [Symbol.asyncDispose]: close,
    };
    listenerCounts.set(sandbox, () => servers.length);
    return sandbox;
  } catch (error) {
    await closeAll(servers);
    throw error;
  }
}

interface ListeningServer {
  server: Server;
  origin: string;
}

/**
 * A listener on `port` of 127.0.0.1, in `servers` (what close() closes) while it is open. One that
 * closes before (a new forms domain, closed by reset()) leaves, or a long-running sandbox would
 * hold every one it ever opened.
 */
async function listenTracked(
  servers: Server[],
  handler: RequestListener | undefined,
  port: number,
): Promise<ListeningServer> {
  const server = createServer(handler);
  server.keepAliveTimeout = IDLE_CONNECTION_MS;
  server.headersTimeout = IDLE_CONNECTION_MS + 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, HOST, () => {
      server.off('error', reject);
      resolve();
    });
  });
  servers.push(server);
  server.once('close', () => {
    const index = servers.indexOf(server);
    if (index !== -1) servers.splice(index, 1);
  });
  return { server, origin: listenerOrigin((server.address() as AddressInfo).port) };
}

/**
 * A listener's origin as a browser writes it, the default port left out (`GET /me`'s formsOrigin
 * on port 80 is http://127.0.0.1): a page comparing a message's `event.origin` with it as text.
 */
export function listenerOrigin(port: number): string {
  return new URL(`http://${HOST}:${port}`).origin;
}

/**
 * The forms domains `changeFormsDomain` opens: each a listener of its own, at most
 * MAX_NEW_FORMS_DOMAINS, closed again by reset() (`closeAll`) and refused once the sandbox is
 * `closed()`.
 */
function newFormsDomains(
  state: SandboxState,
  listen: (handler: RequestListener, port: number) => Promise<ListeningServer>,
  closed: () => boolean,
) {
  const newDomains: Server[] = [];
  return {
    async open(kind: EmbedOriginKind): Promise<string> {
      if (closed()) throw new TypeError('changeFormsDomain: the sandbox is closed');
      if (newDomains.length >= MAX_NEW_FORMS_DOMAINS) {
        throw new TypeError(
          `changeFormsDomain has opened ${MAX_NEW_FORMS_DOMAINS} forms domains; reset() closes them`,
        );
      }
      const { server, origin } = await listen(createEmbedOriginApp(state, kind), 0);
      // close() began while it was opening, and did not see it: nothing else would close it.
      if (closed()) {
        await closeAll([server]);
        throw new TypeError('changeFormsDomain: the sandbox is closed');
      }
      newDomains.push(server);
      return origin;
    },
    closeAll: () => closeAll(newDomains.splice(0)),
  };
}

async function closeAll(servers: Server[]): Promise<void> {
  await Promise.all(
    servers.map(
      (server) =>
        new Promise<void>((resolve) => {
          if (!server.listening) return resolve();
          server.close(() => resolve());
          server.closeAllConnections();
        }),
    ),
  );
}
