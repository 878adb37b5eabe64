import assert from 'node:assert/strict';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { type FormEmbedSessionsOptions, formEmbedSessions } from '@form-embed/express';
import {
  type EmbedOrigins,
  type FormSessionUser,
  type FormTarget,
  mintPath,
} from '@form-embed/protocol';
import { fixtureIds } from '@form-embed/sandbox';
import type { Express, Request } from 'express';
import { createServer, type TestServer } from './create-server.js';
import type { SecretWatch } from './secret-watch.js';

/** The sandbox's form that needs no user, and the mint path the middleware serves for it. */
export const openForm = { kind: 'form', formId: fixtureIds.forms.open } as const;
export const mintPathOfOpenForm = mintPath(openForm);

/** The test portal's own sessions: the `x-portal-session` header stands for its session cookie. */
export const portalUsers: Record<string, FormSessionUser> = {
  adele: { clientId: fixtureIds.clients.contoso, userIdentifier: fixtureIds.users.adele },
  adeleByTenant: {
    microsoftTenantId: fixtureIds.tenants.contoso,
    userIdentifier: fixtureIds.users.adele,
  },
  alex: { clientId: fixtureIds.clients.contoso, userIdentifier: fixtureIds.users.alex },
  megan: { clientId: fixtureIds.clients.fabrikam, userIdentifier: fixtureIds.users.megan },
};

export const PORTAL_SESSION_HEADER = 'x-portal-session';

/** Looks the signed-in user up in the portal's sessions, as a real portal's resolveUser would. */
export function resolvePortalUser(req: Request): FormSessionUser | undefined {
  const session = req.get(PORTAL_SESSION_HEADER);
  return session === undefined ? undefined : portalUsers[session];
}

/**
 * A `fetch` that answers as the real one, but with the JSON body of each successful answer whose
 * URL `matches` passed through `edit` first: the real sandbox's answer as a service might give it.
 */
export function editingAnswers(
  matches: (url: URL, init: RequestInit | undefined) => boolean,
  // biome-ignore lint/suspicious/noExplicitAny: a test rewrites whatever the service answered.
  edit: (body: any) => unknown,
): typeof fetch {
  return async (input, init) => {
    const answer = await fetch(input, init);
    if (!answer.ok || !matches(new URL(String(input)), init)) return answer;
    return Response.json(edit(await answer.json()), { status: answer.status });
  };
}

/**
 * A `fetch` that answers as the real one, but with the service's designer forms list
 * (`GET /api/v1/forms`) passed through `edit` first: the sandbox's list as a service might
 * answer it.
 */
export function editingFormsList(
  edit: (forms: Record<string, unknown>[]) => Record<string, unknown>[],
): typeof fetch {
  return editingAnswers(
    (url) => url.pathname === '/api/v1/forms',
    ({ forms }) => ({ forms: edit(forms) }),
  );
}

export interface UpstreamCall {
  method: string;
  url: string;
  body: unknown;
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when it is not JSON. */
  body: unknown;
}

/**
 * Closed by `await using portal = await mountMiddleware(...)` when the test's block ends, however
 * it ends; `close()` is for a portal shared by the tests of a file (closed in `after`).
 */
export interface MountedMiddleware extends AsyncDisposable {
  server: TestServer;
  /** Every request the middleware sent upstream (through the real fetch). */
  upstream: UpstreamCall[];
  request(path: string, init?: CallInit): Promise<Answer>;
  /**
   * The same request over `node:http`, its path sent exactly as given: fetch would normalise
   * `.`, `..` and their percent-encoded forms away before they reach the server.
   */
  rawRequest(path: string, init?: CallInit): Promise<Answer>;
  mint(target: FormTarget, init?: CallInit): Promise<Answer>;
  /** The Router's `embedOrigins()`, as a page's Content-Security-Policy asks for them. */
  embedOrigins(): Promise<EmbedOrigins | undefined>;
  close(): Promise<void>;
}

export interface CallInit {
  method?: string;
  /** A portal session name from `portalUsers`. */
  session?: string;
  /** Sent as JSON unless a string. Defaults to `{}` on a POST. */
  body?: unknown;
  /** Extra or replacing headers; `undefined` removes a default one. */
  headers?: Record<string, string | undefined>;
}

/**
 * Mounts `formEmbedSessions` on a real portal app talking to the real sandbox at `baseUrl`.
 * Every answer and every log line is recorded in `watch`.
 */
export async function mountMiddleware(
  watch: SecretWatch,
  options: Pick<FormEmbedSessionsOptions, 'apiKey' | 'baseUrl'> & Partial<FormEmbedSessionsOptions>,
  configureApp?: (app: Express) => void,
): Promise<MountedMiddleware> {
  const upstream: UpstreamCall[] = [];
  const realFetch = options.fetch ?? globalThis.fetch;
  let prefetchSettled = () => {};
  const prefetched = new Promise<void>((resolve) => {
    prefetchSettled = resolve;
  });
  const recordingFetch: typeof fetch = async (input, init) => {
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    upstream.push({ method: init?.method ?? 'GET', url: String(input), body });
    try {
      const response = await realFetch(input, init);
      if (init?.method === 'POST') watch.watchUpstreamAnswer(response);
      return response;
    } finally {
      prefetchSettled();
    }
  };
  const middleware = formEmbedSessions({
    resolveUser: resolvePortalUser,
    logger: watch.logger,
    ...options,
    fetch: recordingFetch,
  });
  // The middleware asks GET /me when it is created: counts start once that request is answered.
  if (upstream.length > 0) await prefetched;
  const server = await createServer(middleware, undefined, configureApp);

  const request = async (path: string, init: CallInit = {}): Promise<Answer> => {
    const { method, headers, body } = requestParts(init);
    const response = await fetch(`${server.endpoint}${path}`, { method, headers, body });
    const text = await response.text();
    watch.record(response, text);
    return { status: response.status, headers: response.headers, text, body: parseJson(text) };
  };

  const rawRequest = async (path: string, init: CallInit = {}): Promise<Answer> => {
    const { method, headers, body } = requestParts(init);
    const endpoint = new URL(server.endpoint);
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const outgoing = httpRequest({
        host: endpoint.hostname,
        port: endpoint.port,
        path: `${endpoint.pathname}${path}`,
        method,
        headers,
      });
      outgoing.on('response', resolve).on('error', reject);
      outgoing.end(body);
    });
    let text = '';
    response.setEncoding('utf8');
    for await (const chunk of response) text += chunk;
    const answerHeaders = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      for (const one of [value ?? []].flat()) answerHeaders.append(name, one);
    }
    const status = response.statusCode ?? 0;
    watch.record({ status, headers: answerHeaders }, text);
    return { status, headers: answerHeaders, text, body: parseJson(text) };
  };

  return {
    server,
    upstream,
    request,
    rawRequest,
    mint: (target, init = {}) => request(mintPath(target), { method: 'POST', ...init }),
    embedOrigins: () => middleware.embedOrigins(),
    close: () => server.close(),
    [Symbol.asyncDispose]: () => server.close(),
  };
}

/** The method, headers (the harness defaults, then `init.headers`) and body of one request. */
function requestParts(init: CallInit): {
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
} {
  const method = init.method ?? 'GET';
  const headers: Record<string, string | undefined> = {
    'sec-fetch-site': 'same-origin',
    ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    ...(init.session === undefined ? {} : { [PORTAL_SESSION_HEADER]: init.session }),
    ...init.headers,
  };
  const body =
    init.body === undefined
      ? method === 'POST'
        ? '{}'
        : undefined
      : typeof init.body === 'string'
        ? init.body
        : JSON.stringify(init.body);
  return {
    method,
    headers: Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    body,
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Runs `run` and asserts that the middleware of `portal` sent nothing upstream meanwhile. */
export async function withoutUpstream(
  portal: Pick<MountedMiddleware, 'upstream'>,
  run: () => Promise<void>,
) {
  const before = portal.upstream.length;
  await run();
  assert.deepEqual(portal.upstream.slice(before), [], 'a refused request reached the service');
}
