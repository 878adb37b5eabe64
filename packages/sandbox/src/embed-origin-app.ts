/**
 * An embed origin: the framed form pages. Designer forms on `formsOrigin` under `/f/`, Core
 * forms on `coreFormsOrigin` under `/c/`. A GET of the embedUrl redeems its handle and
 * redirects (303) to the session URL, so a reload does not redeem again. No cookies: the
 * session id lives in the URL, because browsers block third-party cookies in a cross-site frame.
 */
import { randomBytes } from 'node:crypto';
import { statusOfSessionErrorCode } from '@form-embed/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';
import { held } from './held-request.js';
import {
  type EmbedOriginKind,
  findPageForm,
  type PageForm,
  sameTarget,
  sessionOf,
} from './page-forms.js';
import {
  expiredPage,
  formPage,
  notFoundPage,
  signInErrorPage,
  submittedPage,
  unexpectedErrorPage,
} from './page-html.js';
import { BODY_LIMIT, describeBodyProblem } from './request-body.js';
import type { SandboxState } from './sandbox-state.js';
import type { FormSessionRecord } from './session-store.js';
import { isUndecodablePath } from './undecodable-path.js';

export type { EmbedOriginKind } from './page-forms.js';

type PageRequest = Request<{ id: string; sessionId?: string }>;

/** What every page handler needs: the shared state and which embed origin this is. */
interface Origin {
  state: SandboxState;
  kind: EmbedOriginKind;
}

export function createEmbedOriginApp(state: SandboxState, kind: EmbedOriginKind): express.Express {
  const origin: Origin = { state, kind };
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(function noStoreNoReferrer(_req: Request, res: Response, next: NextFunction) {
    // The URL carries the session id (and, before redirect, the handle): never cache it or leak it.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  });
  const prefix = kind === 'forms' ? '/f/:id' : '/c/:id';
  // Express answers HEAD with the GET route: a link checker's HEAD would spend the handle, or
  // the one `expired` a lapsed session posts. The pages are framed with GET only.
  app.head([prefix, `${prefix}/s/:sessionId`], (_req: Request, res: Response) => {
    res.status(405).set('Allow', 'GET').end();
  });
  app.get(prefix, redeemHandle(origin));
  app.get(`${prefix}/s/:sessionId`, showSession(origin));
  app.post(`${prefix}/submit`, submitAnonymous(origin));
  app.post(`${prefix}/s/:sessionId/submit`, submitSession(origin));
  if (kind === 'coreForms')
    app.post(`${prefix}/s/:sessionId/lookup`, express.json({ limit: BODY_LIMIT }), lookup(origin));
  app.use(function pageNotFound(_req: Request, res: Response) {
    res.status(404).type('html').send(notFoundPage());
  });
  app.use(pageError);
  return app;
}

/**
 * Instead of Express's default (a stack trace, also printed to stderr): an address that is not
 * valid percent-encoding answers the not-found page with 400, and the lookup answers `{error}`
 * JSON, as its page script reads it.
 */
function pageError(error: unknown, req: Request, res: Response, _next: NextFunction) {
  if (res.headersSent) return void req.socket.destroy();
  const undecodable = isUndecodablePath(error);
  const problem = undecodable ? 'The address is not valid.' : describeBodyProblem(error);
  const status = undecodable ? 400 : problem ? (error as { status: number }).status : 500;
  if (req.method === 'POST' && req.path.endsWith('/lookup')) {
    return void res.status(status).json({ error: problem ?? 'Unexpected error in the sandbox.' });
  }
  html(res, status, problem ? notFoundPage() : unexpectedErrorPage());
}

const html = (res: Response, status: number, page: string) =>
  void res.status(status).type('html').send(page);

/** The embedUrl: an anonymous page, or a handle redeemed and redirected to its session URL. */
function redeemHandle({ state, kind }: Origin) {
  return async function redeemHandle(req: PageRequest, res: Response) {
    const form = findPageForm(kind, req.params.id);
    if (!form) return html(res, 404, notFoundPage());
    const handle = req.query.handle;
    if (handle === undefined && form.anonymousAllowed) {
      const submitAction = `${form.basePath}/submit`;
      return html(
        res,
        200,
        formPage({ formName: form.name, signedIn: false, signedInAs: undefined, submitAction }),
      );
    }
    // A redemption's fault: an address with no handle (a shareUrl) redeems nothing.
    const fault = typeof handle === 'string' ? state.faults.take(['redeem']) : undefined;
    if (fault?.kind === 'delay' && !(await held(state, req, res, fault.delayMs))) return;
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault && fault.kind !== 'delay') {
      const status =
        fault.kind === 'error' ? (fault.status ?? statusOfSessionErrorCode(fault.code, 401)) : 401;
      return html(res, status, signInErrorPage());
    }
    const redemption =
      typeof handle === 'string' ? state.sessions.redeem(handle) : ({ ok: false } as const);
    if (!redemption.ok || !sameTarget(redemption.session.target, form.target)) {
      return html(res, 401, signInErrorPage());
    }
    res.redirect(303, `${form.basePath}/s/${encodeURIComponent(redemption.session.id)}`);
  };
}

/**
 * The form and session a session URL names, or the page that answers instead: not found, not
 * signed in, or the lapse notice (which posts `expired` once per lapse).
 */
function liveSession(
  { state, kind }: Origin,
  req: PageRequest,
  res: Response,
): { form: PageForm; session: FormSessionRecord } | undefined {
  const form = findPageForm(kind, req.params.id);
  if (!form) return html(res, 404, notFoundPage());
  const session = sessionOf(state, form, req.params.sessionId ?? '');
  if (!session) return html(res, 401, signInErrorPage());
  if (state.sessions.hasLapsed(session)) {
    return html(res, 401, expiredPage(state.sessions.reportLapse(session)));
  }
  return { form, session };
}

function showSession(origin: Origin) {
  return function showSession(req: PageRequest, res: Response) {
    const live = liveSession(origin, req, res);
    if (!live) return;
    const { form, session } = live;
    const base = `${form.basePath}/s/${encodeURIComponent(session.id)}`;
    res.type('html').send(
      formPage({
        formName: form.name,
        signedIn: true,
        signedInAs: session.identifier,
        submitAction: `${base}/submit`,
        ...(origin.kind === 'coreForms' ? { lookupAction: `${base}/lookup` } : {}),
      }),
    );
  };
}

function submitAnonymous({ kind }: Origin) {
  return function submitAnonymous(req: PageRequest, res: Response) {
    const form = findPageForm(kind, req.params.id);
    if (!form?.anonymousAllowed) return html(res, 404, notFoundPage());
    html(res, 200, submittedPage(form.name, reference()));
  };
}

function submitSession(origin: Origin) {
  return function submitSession(req: PageRequest, res: Response) {
    const live = liveSession(origin, req, res);
    if (live) html(res, 200, submittedPage(live.form.name, reference()));
  };
}

/** The Core form's lookup: JSON, so the page can post `expired` itself when it lapsed. */
function lookup({ state, kind }: Origin) {
  return function lookup(req: PageRequest, res: Response) {
    const form = findPageForm(kind, req.params.id);
    const session = form && sessionOf(state, form, req.params.sessionId ?? '');
    if (!session) return void res.status(404).json({ error: 'No such session.' });
    if (state.sessions.hasLapsed(session)) {
      return void res
        .status(401)
        .json({ state: 'expired', post: state.sessions.reportLapse(session) });
    }
    const query = typeof req.body?.query === 'string' ? req.body.query.trim() : '';
    res.json({
      result: query
        ? `No existing account matches "${query}": the name is free.`
        : 'Lookup complete: 3 licences available.',
    });
  };
}

function reference(): string {
  return `REF-${randomBytes(3).toString('hex').toUpperCase()}`;
}
