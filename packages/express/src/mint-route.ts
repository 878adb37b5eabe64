import {
  FORM_REF_MAX_LENGTH,
  type FormTarget,
  isDotSegment,
  isOnEmbedOrigin,
  isValidFormRef,
  type MintResponse,
} from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { describeTarget, isAuthorized } from './authorize.js';
import { type EmbedOrigins, embedOriginFor } from './embed-origins.js';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { resolvedUserOf } from './resolve-user.js';
import type { ServiceClient } from './service-client.js';
import { portalError, SessionErrorResponse, sessionError } from './session-error-response.js';

interface MintDependencies {
  client: ServiceClient;
  embedOrigins: EmbedOrigins;
  authorize: FormEmbedSessionsConfig['authorize'];
  logger: Logger;
}

/** The form a mint route names: `/forms/:formId/session` or `/core-forms/:slug/session`. */
export function targetOf(req: Request): FormTarget {
  const { formId, slug } = req.params as { formId?: string; slug?: string };
  return formId !== undefined ? { kind: 'form', formId } : { kind: 'coreForm', slug: slug ?? '' };
}

/**
 * Refuses a form id or slug that is empty, `.`, `..` (as Express decoded it, so `%2E%2E` too) or
 * over 200 characters (docs/contract.md#form-ids): placed in the upstream path, a dot segment
 * would send the API-keyed POST to another endpoint, and a long id grows threefold when encoded
 * until the service refuses the request line. Runs before `authorize`, the per-user limit and
 * any upstream request.
 */
export function refuseInvalidFormRef(req: Request, _res: Response, next: NextFunction): void {
  const target = targetOf(req);
  const value = target.kind === 'form' ? target.formId : target.slug;
  if (!isValidFormRef(value)) {
    const what = target.kind === 'form' ? 'form id' : 'Core form slug';
    throw sessionError(
      'invalid_request',
      isDotSegment(value)
        ? `The ${what} is not a valid path segment.`
        : `The ${what} must be at most ${FORM_REF_MAX_LENGTH} characters.`,
    );
  }
  next();
}

/** The `authorize` veto on the route's form: a refusal is `forbidden`. */
export function authorizeMint(deps: MintDependencies): RequestHandler {
  return async function authorizeTarget(req, _res, next) {
    const target = targetOf(req);
    if (!(await isAuthorized(deps.authorize, req, target, deps.logger))) {
      throw sessionError(
        'forbidden',
        `The portal does not allow this user ${describeTarget(target)}.`,
      );
    }
    next();
  };
}

/**
 * One mint: exactly one upstream request (the embed origins come from the cache, fetched
 * alongside the first mint), then the embedUrl is checked against the embed origin of the
 * form's kind before anything reaches the browser.
 */
export function mintRoute(deps: MintDependencies): RequestHandler {
  return async function mintSession(req: Request, res: Response) {
    const target = targetOf(req);
    const originsPending = deps.embedOrigins.get();
    originsPending.catch(() => {}); // awaited below; the mint's own failure may come first
    const user = resolvedUserOf(res);
    const session = await deps.client.mint(target, user).catch((error: unknown) => {
      throw user === undefined && isInvalidRequest(error) ? portalError('sign_in_required') : error;
    });
    let origins = await originsPending;
    if (!isOnEmbedOrigin(session.embedUrl, embedOriginFor(origins, target))) {
      origins = await deps.embedOrigins.refresh(origins);
    }
    const embedOrigin = embedOriginFor(origins, target);
    if (!isOnEmbedOrigin(session.embedUrl, embedOrigin)) {
      deps.logger.error('refused an embedUrl that is not on the embed origin', {
        target: describeTarget(target),
        embedOrigin,
        embedUrlOrigin: new URL(session.embedUrl).origin,
      });
      throw sessionError('internal_error', "The service's embedUrl is not on the embed origin.");
    }
    const answer: MintResponse = {
      embedUrl: session.embedUrl,
      embedOrigin,
      provider: session.provider,
      expiresIn: session.expiresIn,
    };
    res.set('Cache-Control', 'no-store').status(200).json(answer);
  };
}

/** The service's refusal of a request as incomplete: for a user-less mint, the user is missing. */
function isInvalidRequest(error: unknown): boolean {
  return error instanceof SessionErrorResponse && error.answer.code === 'invalid_request';
}
