/**
 * The API origin (`baseUrl`). One handler, in the order stripe-mock uses: authenticate (and
 * count the request against the key's limit), route, then answer, reading the body only there
 * and only for the routes that take one. Every answer, unknown routes included, has the
 * contract's error shape: `{error: string}`, or a SessionError `{error: {code, message,
 * retryable}}` on the two form-session endpoints.
 */
import {
  type FormSession,
  type FormTarget,
  isKnownSessionErrorCode,
  SessionErrorCodes,
  statusOfSessionErrorCode,
} from '@form-embed/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';
import { isSessionRoute, type MatchedRoute, matchRoute } from './api-routes.js';
import { authenticate } from './authenticate.js';
import type { SandboxControl } from './control.js';
import { controlRouter } from './control-router.js';
import type { Fault } from './faults.js';
import { clients, coreForms, forms, organisations, otherOrganisationForms } from './fixtures.js';
import { decideFormSession, parseFormSessionBody } from './form-session-rules.js';
import { openApiDocument } from './openapi.js';
import { readBody } from './request-body.js';
import { coreFormPath, designerFormPath, toClient, toCoreForm, toForm } from './resources.js';
import type { SandboxState } from './sandbox-state.js';
import { sleep } from './sleep.js';

export const CONTROL_PATH = '/__sandbox/control';

interface Call {
  req: Request;
  res: Response;
  route: MatchedRoute;
  organisationId: string;
  /** Set by a `foreignEmbedUrl` fault: the origin the next embedUrl is put on. */
  foreignOrigin: string | undefined;
}

export function createApiApp(state: SandboxState, control: SandboxControl): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (state.config.controlApi)
    app.use(CONTROL_PATH, controlRouter(control, state.config.controlOrigins));
  app.use(async (req, res) => {
    const route = matchRoute(req.method, req.path);
    state.countRequest(route?.key ?? `${req.method} (no route)`);
    const session = route !== undefined && isSessionRoute(route.name);
    // A mint is never cached, and neither is a refusal of one.
    if (session) res.set('Cache-Control', 'no-store');
    if (state.latencyMs > 0) await sleep(state.latencyMs);

    // 1. Authenticate, then count the request against the key's limit (unknown routes and
    // faults included, so every authenticated answer carries the limit headers).
    const auth = authenticate(req.get('authorization'));
    if (!auth.ok) return sendError(res, session, 'invalid_api_key', auth.message);
    const limit = await state.limits.take(session ? 'mints' : 'reads', auth.apiKey);
    res.set({
      'X-RateLimit-Limit': String(limit.limit),
      'X-RateLimit-Remaining': String(limit.remaining),
    });
    if (!limit.allowed) {
      res.set('Retry-After', String(limit.retryAfter));
      const message = 'Too many requests for this key; wait Retry-After seconds.';
      return sendError(res, session, 'rate_limited', message);
    }
    // 2. Route.
    if (!route) {
      return void res.status(404).json({ error: `No such route: ${req.method} ${req.path}` });
    }
    const fault = state.faults.take(session ? ['api', 'session'] : ['api']);
    if (fault && (await answeredFault(req, res, fault, session))) return;
    // 3. Answer.
    const foreignOrigin =
      fault?.kind === 'foreignEmbedUrl' ? (fault.origin ?? 'https://foreign.example') : undefined;
    await answer(state, { req, res, route, organisationId: auth.organisationId, foreignOrigin });
  });
  app.use((_error: unknown, req: Request, res: Response, _next: NextFunction) => {
    if (res.headersSent) return void req.socket.destroy();
    const route = matchRoute(req.method, req.path);
    const session = route !== undefined && isSessionRoute(route.name);
    sendError(res, session, 'internal_error', 'Unexpected error in the sandbox.');
  });
  return app;
}

async function answer(state: SandboxState, call: Call): Promise<void> {
  const { req, res, route, organisationId } = call;
  const { formsOrigin, coreFormsOrigin } = state.origins;
  switch (route.name) {
    case 'me': {
      const org = organisations.find((o) => o.organisationId === organisationId);
      return void res.json({ ...org, formsOrigin, coreFormsOrigin });
    }
    case 'clients': {
      const page = readPage(req.query);
      if (typeof page === 'string') return void res.status(400).json({ error: page });
      const own = clients.filter((c) => c.organisationId === organisationId);
      return void res.json({
        clients: own.slice(page.offset, page.offset + page.limit).map(toClient),
        total: own.length,
        hasMore: page.offset + page.limit < own.length,
      });
    }
    case 'client': {
      const client = clients.find(
        (c) => c.id === route.params.clientId && c.organisationId === organisationId,
      );
      if (!client) return void res.status(404).json({ error: 'No such client.' });
      return void res.json(toClient(client));
    }
    case 'forms': {
      const own = [...forms, ...otherOrganisationForms].filter(
        (f) => f.organisationId === organisationId,
      );
      return void res.json({ forms: own.map((f) => toForm(f, formsOrigin)) });
    }
    case 'coreForms':
      return void res.json({ forms: coreForms.map((f) => toCoreForm(f, coreFormsOrigin)) });
    case 'coreForm': {
      const form = coreForms.find((f) => f.slug === route.params.slug);
      if (!form) return void res.status(404).json({ error: 'No such Core form.' });
      return void res.json(toCoreForm(form, coreFormsOrigin));
    }
    case 'formSession':
    case 'coreFormSession':
      return mint(state, call);
    case 'openapi':
      return void res.json(openApiDocument());
  }
}

async function mint(state: SandboxState, call: Call): Promise<void> {
  const { req, res, route, organisationId, foreignOrigin } = call;
  const read = await readBody(req, res);
  if (!read.ok) return sendSessionError(res, 'invalid_request', read.message);
  const body = parseFormSessionBody(read.text);
  if ('ok' in body) return sendSessionError(res, body.code, body.message);
  const target: FormTarget =
    route.name === 'formSession'
      ? { kind: 'form', formId: route.params.formId ?? '' }
      : { kind: 'coreForm', slug: route.params.slug ?? '' };
  const decision = decideFormSession(
    { organisationId, microsoftConnection: state.microsoftConnection },
    target,
    body.user,
  );
  if (!decision.ok) {
    if (decision.retryAfter !== undefined) res.set('Retry-After', String(decision.retryAfter));
    return void sendSessionError(res, decision.code, decision.message);
  }
  const origin =
    foreignOrigin ??
    (target.kind === 'form' ? state.origins.formsOrigin : state.origins.coreFormsOrigin);
  const page =
    origin + (target.kind === 'form' ? designerFormPath(target.formId) : coreFormPath(target.slug));
  if (!decision.handle) {
    const session: FormSession = { embedUrl: page, provider: decision.provider, expiresIn: 0 };
    return void res.json(session);
  }
  const handle = state.sessions.mint(target, decision.provider, decision.identifier);
  const session: FormSession = {
    embedUrl: `${page}?handle=${encodeURIComponent(handle)}`,
    provider: decision.provider,
    expiresIn: Math.ceil(state.config.handleTtlSeconds),
    formSessionHandle: handle,
  };
  res.json(session);
}

/** An error in the contract's shape: a SessionError on the session endpoints, else `{error}`. */
function sendError(res: Response, session: boolean, code: string, message: string): void {
  if (session) sendSessionError(res, code, message);
  else res.status(statusOfSessionErrorCode(code, 500)).json({ error: message });
}

function sendSessionError(
  res: Response,
  code: string,
  message: string,
  overrides: { status?: number; retryable?: boolean } = {},
): void {
  const known = isKnownSessionErrorCode(code) ? SessionErrorCodes[code] : undefined;
  res.status(overrides.status ?? statusOfSessionErrorCode(code, 400)).json({
    error: { code, message, retryable: overrides.retryable ?? known?.retryable ?? false },
  });
}

/** Applies an injected fault; true when it answered (or dropped) the request. */
async function answeredFault(
  req: Request,
  res: Response,
  fault: Fault,
  session: boolean,
): Promise<boolean> {
  switch (fault.kind) {
    case 'foreignEmbedUrl':
      return false;
    case 'delay':
      await sleep(fault.delayMs);
      return false;
    case 'reset':
      req.socket.destroy();
      return true;
    case 'notJson':
      res
        .status(fault.status ?? 200)
        .type('html')
        .send('<html><body><h1>Bad gateway</h1><p>This is not JSON.</p></body></html>');
      return true;
    case 'error': {
      if (fault.retryAfter !== undefined) res.set('Retry-After', String(fault.retryAfter));
      const message = fault.message ?? `Injected fault: ${fault.code}.`;
      const status = fault.status ?? statusOfSessionErrorCode(fault.code, 400);
      if (session) {
        sendSessionError(res, fault.code, message, {
          status,
          ...(fault.retryable !== undefined ? { retryable: fault.retryable } : {}),
        });
      } else {
        res.status(status).json({ error: message });
      }
      return true;
    }
  }
}

/** Reads `limit` (1..100, default 50) and `offset` (>= 0); a string names the bad parameter. */
function readPage(query: Request['query']): { limit: number; offset: number } | string {
  const read = (name: 'limit' | 'offset', fallback: number, min: number, max: number) => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    if (typeof raw !== 'string' || !/^\d+$/.test(raw)) return `${name} must be an integer`;
    const value = Number(raw);
    if (value < min || value > max) {
      return max === Number.MAX_SAFE_INTEGER
        ? `${name} must be at least ${min}`
        : `${name} must be between ${min} and ${max}`;
    }
    return value;
  };
  const limit = read('limit', 50, 1, 100);
  if (typeof limit === 'string') return limit;
  const offset = read('offset', 0, 0, Number.MAX_SAFE_INTEGER);
  if (typeof offset === 'string') return offset;
  return { limit, offset };
}
