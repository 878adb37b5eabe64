import { type FormTarget, formRefRefusal, type MintResponse } from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { countAnswer, countBrowserGone, countRequest } from './answer-metrics.js';
import { describeTarget, isAuthorized } from './authorize.js';
import { BrowserGone, browserGoneController, isBrowserGone } from './browser-gone.js';
import { refuseNonJson } from './csrf.js';
import { type EmbedOriginCache, embedOriginFor } from './embed-origins.js';
import { readJsonBody } from './json-body.js';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig, ResolvedUser } from './options.js';
import { passesLimit } from './request-limits.js';
import type { ServiceClient } from './service-client.js';
import { portalError, SessionErrorResponse, sessionError } from './session-error-response.js';

export interface MintDependencies {
  client: ServiceClient;
  embedOrigins: EmbedOriginCache;
  authorize: FormEmbedSessionsConfig['authorize'];
  logger: Logger;
  resolveUser: (req: Request, res: Response) => Promise<ResolvedUser>;
  refuseSignedOut: (target: FormTarget) => Promise<void>;
  mintLimit: RequestHandler;
  signedOutMintLimit: RequestHandler;
  /** How long the request's body may take to arrive. */
  timeoutMs: number;
}

/** The form a mint route names: `/forms/:formId/session` or `/core-forms/:slug/session`. */
function targetOf(req: Request): FormTarget {
  const { formId, slug } = req.params as { formId?: string; slug?: string };
  return formId !== undefined ? { kind: 'form', formId } : { kind: 'coreForm', slug: slug ?? '' };
}

/**
 * `POST /forms/:formId/session` and `POST /core-forms/:slug/session`, as one handler rather
 * than a router layer per step (each layer cost a mint more than its check): counted, the form
 * reference and `Content-Type` checked, the body read, the user resolved, the user's limit (the
 * client address's, signed out) counted, the mint refused when nobody is signed in and its form
 * needs a user, `authorize` asked, the count all signed-out visitors share counted, then the
 * mint itself. Any refusal goes to `next`, in the SessionError shape.
 */
export function mintRoute(deps: MintDependencies): RequestHandler {
  return function mintSession(req: Request, res: Response, next: NextFunction): void {
    const target = targetOf(req);
    countRequest(res, target.kind);
    const refusal = formRefRefusal(target);
    if (refusal !== undefined) throw sessionError('invalid_request', refusal);
    refuseNonJson(req);
    answerMint(deps, req, res, target).catch(next);
  };
}

async function answerMint(deps: MintDependencies, req: Request, res: Response, target: FormTarget) {
  await readJsonBody(req, res, deps.timeoutMs);
  const user = await deps.resolveUser(req, res);
  // The user's own count (the client address's, signed out) takes every mint request: telling
  // whether the form needs a user may read the forms list, and `authorize` is the portal's own
  // work, neither of which one user or a flood of signed-out requests may ask for without bound.
  if (!(await passesLimit(deps.mintLimit, req, res))) return;
  // A browser that has gone (while resolveUser ran, say) is asked nothing more for.
  refuseGoneBrowser(res);
  // Before `authorize`, which may expect a user.
  if (user === undefined) await deps.refuseSignedOut(target);
  if (!(await isAuthorized(deps.authorize, req, target, deps.logger))) {
    throw sessionError(
      'forbidden',
      `The portal does not allow this user ${describeTarget(target)}.`,
    );
  }
  // Nor gets a mint, or spends any of the count below, if it went while authorize ran.
  refuseGoneBrowser(res);
  // Last before the mint: the one count every signed-out visitor shares, which only a mint that
  // goes upstream may spend.
  if (user === undefined && !(await passesLimit(deps.signedOutMintLimit, req, res))) return;
  const answer = await mintOnEmbedOrigin(deps, target, user, browserGoneController(res));
  // Spent, but nobody reads it: nothing is written to a closed response.
  if (isBrowserGone(res)) return countBrowserGone(res);
  res.statusCode = 200;
  countAnswer(res, 'ok');
  // Not res.json: its ETag (a SHA-1 of every answer) is of no use on a single-use, no-store answer.
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(answer));
}

/** Ends the request, answering nothing (`client_closed_request`), when its browser has gone. */
function refuseGoneBrowser(res: Response): void {
  if (isBrowserGone(res)) throw new BrowserGone('the browser has gone');
}

/**
 * One mint: exactly one upstream request (the embed origins come from the cache), then the
 * embedUrl is checked against the embed origin of the form's kind before anything reaches the
 * browser. Until the origins have been fetched once, the mint waits for them: a mint whose
 * embedUrl could not be checked would spend the organisation's quota for a failure (a cold
 * instance whose GET /me fails would fail every mint sent meanwhile, after spending it).
 */
async function mintOnEmbedOrigin(
  deps: MintDependencies,
  target: FormTarget,
  user: ResolvedUser,
  browserGone: AbortController,
): Promise<MintResponse> {
  let origins = await deps.embedOrigins.forMint();
  // Not sent once the browser has gone (BrowserGone), ended if it goes while the mint is out.
  const session = await deps.client.mint(target, user, browserGone).catch((error: unknown) => {
    throw user === undefined && isInvalidRequest(error) ? portalError('sign_in_required') : error;
  });
  const urlOrigin = session.embedUrlOrigin;
  if (urlOrigin !== embedOriginFor(origins, target)) {
    origins = await deps.embedOrigins.refresh(origins);
  }
  const embedOrigin = embedOriginFor(origins, target);
  if (urlOrigin !== embedOrigin) {
    deps.logger.error('refused an embedUrl that is not on the embed origin', {
      target: describeTarget(target),
      embedOrigin,
      embedUrlOrigin: urlOrigin,
    });
    throw sessionError('internal_error', "The service's embedUrl is not on the embed origin.");
  }
  const { embedUrl, provider, expiresIn } = session;
  return { embedUrl, embedOrigin, provider, expiresIn };
}

/** The service's refusal of a request as incomplete: for a user-less mint, the user is missing. */
function isInvalidRequest(error: unknown): boolean {
  return (
    error instanceof SessionErrorResponse &&
    error.fromService &&
    error.answer.code === 'invalid_request'
  );
}
