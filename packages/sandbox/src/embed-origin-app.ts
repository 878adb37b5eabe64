/**
 * An embed origin: the framed form pages. Designer forms on `formsOrigin` under `/f/`, Core
 * forms on `coreFormsOrigin` under `/c/`. A GET of the embedUrl redeems its handle and
 * redirects (303) to the session URL, so a reload does not redeem again. No cookies: the
 * session id lives in the URL, because browsers block third-party cookies in a cross-site frame.
 */
import { randomBytes } from 'node:crypto';
import { type FormTarget, statusOfSessionErrorCode } from '@form-embed/protocol';
import express, { type Request, type Response } from 'express';
import { coreForms, forms, otherOrganisationForms } from './fixtures.js';
import {
  expiredPage,
  formPage,
  notFoundPage,
  signInErrorPage,
  submittedPage,
} from './page-html.js';
import { coreFormPath, designerFormPath } from './resources.js';
import type { SandboxState } from './sandbox-state.js';
import type { FormSessionRecord } from './session-store.js';
import { sleep } from './sleep.js';

export type EmbedOriginKind = 'forms' | 'coreForms';

interface PageForm {
  name: string;
  target: FormTarget;
  basePath: string;
  anonymousAllowed: boolean;
}

export function createEmbedOriginApp(state: SandboxState, kind: EmbedOriginKind): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((_req, res, next) => {
    // The URL carries the session id (and, before redirect, the handle): never cache it or leak it.
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    next();
  });

  const prefix = kind === 'forms' ? '/f/:id' : '/c/:id';

  const findForm = (id: string): PageForm | undefined => {
    if (kind === 'forms') {
      const form = [...forms, ...otherOrganisationForms].find((f) => f.id === id);
      return (
        form && {
          name: form.name,
          target: { kind: 'form', formId: form.id },
          basePath: designerFormPath(form.id),
          anonymousAllowed: form.authType === 'none',
        }
      );
    }
    const form = coreForms.find((f) => f.slug === id);
    return (
      form && {
        name: form.name,
        target: { kind: 'coreForm', slug: form.slug },
        basePath: coreFormPath(form.slug),
        anonymousAllowed: false,
      }
    );
  };

  const sessionOf = (form: PageForm, sessionId: string): FormSessionRecord | undefined => {
    const session = state.sessions.session(sessionId);
    return session && sameTarget(session.target, form.target) ? session : undefined;
  };

  /** Renders the lapse page when the session lapsed; true if it did. */
  const answeredLapse = (res: Response, session: FormSessionRecord): boolean => {
    if (!state.sessions.hasLapsed(session)) return false;
    res
      .status(401)
      .type('html')
      .send(expiredPage(state.sessions.reportLapse(session)));
    return true;
  };

  app.get(prefix, async (req: Request<{ id: string }>, res) => {
    const form = findForm(req.params.id);
    if (!form) return void res.status(404).type('html').send(notFoundPage());
    const handle = req.query.handle;
    if (handle === undefined && form.anonymousAllowed) {
      return void res.type('html').send(
        formPage({
          formName: form.name,
          signedIn: false,
          signedInAs: undefined,
          submitAction: `${form.basePath}/submit`,
        }),
      );
    }
    const fault = state.faults.take(['redeem']);
    if (fault?.kind === 'delay') await sleep(fault.delayMs);
    if (fault?.kind === 'reset') return void req.socket.destroy();
    if (fault && fault.kind !== 'delay') {
      const status =
        fault.kind === 'error' ? (fault.status ?? statusOfSessionErrorCode(fault.code, 401)) : 401;
      return void res.status(status).type('html').send(signInErrorPage());
    }
    const redemption =
      typeof handle === 'string' ? state.sessions.redeem(handle) : ({ ok: false } as const);
    if (!redemption.ok || !sameTarget(redemption.session.target, form.target)) {
      return void res.status(401).type('html').send(signInErrorPage());
    }
    res.redirect(303, `${form.basePath}/s/${encodeURIComponent(redemption.session.id)}`);
  });

  app.get(`${prefix}/s/:sessionId`, (req: Request<{ id: string; sessionId: string }>, res) => {
    const form = findForm(req.params.id);
    if (!form) return void res.status(404).type('html').send(notFoundPage());
    const session = sessionOf(form, req.params.sessionId);
    if (!session) return void res.status(401).type('html').send(signInErrorPage());
    if (answeredLapse(res, session)) return;
    const base = `${form.basePath}/s/${encodeURIComponent(session.id)}`;
    res.type('html').send(
      formPage({
        formName: form.name,
        signedIn: true,
        signedInAs: session.identifier,
        submitAction: `${base}/submit`,
        ...(kind === 'coreForms' ? { lookupAction: `${base}/lookup` } : {}),
      }),
    );
  });

  app.post(`${prefix}/submit`, (req: Request<{ id: string }>, res) => {
    const form = findForm(req.params.id);
    if (!form?.anonymousAllowed) return void res.status(404).type('html').send(notFoundPage());
    res.type('html').send(submittedPage(form.name, reference()));
  });

  app.post(
    `${prefix}/s/:sessionId/submit`,
    (req: Request<{ id: string; sessionId: string }>, res) => {
      const form = findForm(req.params.id);
      if (!form) return void res.status(404).type('html').send(notFoundPage());
      const session = sessionOf(form, req.params.sessionId);
      if (!session) return void res.status(401).type('html').send(signInErrorPage());
      if (answeredLapse(res, session)) return;
      res.type('html').send(submittedPage(form.name, reference()));
    },
  );

  if (kind === 'coreForms') {
    app.post(
      `${prefix}/s/:sessionId/lookup`,
      express.json(),
      (req: Request<{ id: string; sessionId: string }>, res) => {
        const form = findForm(req.params.id);
        const session = form && sessionOf(form, req.params.sessionId);
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
      },
    );
  }

  app.use((_req, res) => {
    res.status(404).type('html').send(notFoundPage());
  });
  return app;
}

function sameTarget(a: FormTarget, b: FormTarget): boolean {
  return a.kind === 'form' && b.kind === 'form'
    ? a.formId === b.formId
    : a.kind === 'coreForm' && b.kind === 'coreForm' && a.slug === b.slug;
}

function reference(): string {
  return `REF-${randomBytes(3).toString('hex').toUpperCase()}`;
}
