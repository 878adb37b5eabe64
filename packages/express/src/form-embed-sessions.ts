import { CATALOGUE_PATH } from '@form-embed/protocol';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { CatalogueReads } from './catalogue-reads.js';
import { catalogueRoute, requireSignInForCatalogue } from './catalogue-route.js';
import { refuseCrossSite, requireJson } from './csrf.js';
import { EmbedOrigins } from './embed-origins.js';
import { forwardRejection } from './forward-rejection.js';
import { describe, type Logger, messageFirst, redactingLogger } from './logger.js';
import { countMint } from './mint-metrics.js';
import { authorizeMint, mintRoute, refuseInvalidFormRef } from './mint-route.js';
import type { FormEmbedSessionsOptions } from './options.js';
import { parseOptions } from './parse-options.js';
import { perUserLimits } from './per-user-limit.js';
import { resolveUserOnServer } from './resolve-user.js';
import { ServiceClient } from './service-client.js';
import { SessionErrorResponse, sendSessionError, sessionError } from './session-error-response.js';
import { refuseSignedOut } from './signed-out.js';

/**
 * The server half of form embedding, as an Express Router to mount under a path of its own
 * (e.g. `app.use('/form-sessions', formEmbedSessions(options))`):
 * `POST /forms/:formId/session`, `POST /core-forms/:slug/session` and `GET /forms`.
 * Throws at once, naming the option, when `options` are not valid.
 */
export function formEmbedSessions(options: FormEmbedSessionsOptions): Router {
  const config = parseOptions(options);
  const logger = redactingLogger(messageFirst(config.logger), config.apiKey);
  const client = new ServiceClient({ ...config, logger });
  const embedOrigins = new EmbedOrigins(client);
  embedOrigins.prefetch(logger);
  const reads = new CatalogueReads(client, logger, config.catalogue.cacheTtlMs);
  const mintDependencies = { client, embedOrigins, authorize: config.authorize, logger };
  const resolveUser = forwardRejection(resolveUserOnServer(config.resolveUser, logger));
  const limits = perUserLimits(config.limit, logger);
  // The body is read only so that a malformed one is refused; nothing in it is used.
  const readJsonBody = express.json({ limit: '16kb', type: () => true });

  const router = express.Router();
  router.use(noStore, refuseCrossSite(config.allowedOrigins));
  for (const path of ['/forms/:formId/session', '/core-forms/:slug/session']) {
    router.post(
      path,
      countMint,
      refuseInvalidFormRef,
      requireJson,
      readJsonBody,
      resolveUser,
      forwardRejection(refuseSignedOut(reads, logger)),
      forwardRejection(authorizeMint(mintDependencies)),
      limits.mint,
      forwardRejection(mintRoute(mintDependencies)),
    );
  }
  router.get(
    CATALOGUE_PATH,
    resolveUser,
    requireSignInForCatalogue(config.catalogue.anonymous),
    limits.catalogue,
    forwardRejection(catalogueRoute({ reads, authorize: config.authorize, logger })),
  );
  router.use(noSuchRoute);
  router.use(answerError(logger));
  return router;
}

function noSuchRoute(): never {
  throw sessionError('not_found', 'No such form-session route.');
}

function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.set('Cache-Control', 'no-store');
  next();
}

/** Every failure leaves as a SessionError: the middleware's own, the service's, or a malformed request. */
function answerError(logger: Logger) {
  return function answerError(
    error: unknown,
    _req: Request,
    res: Response,
    next: NextFunction,
  ): void {
    if (res.headersSent) {
      next(error);
    } else if (error instanceof SessionErrorResponse) {
      sendSessionError(res, error.answer);
    } else if (isClientError(error)) {
      sendSessionError(res, sessionError('invalid_request', malformedMessage(error)).answer);
    } else {
      logger.error('unexpected failure while answering a form-session request', {
        error: describe(error),
      });
      sendSessionError(
        res,
        sessionError('internal_error', 'Unexpected error in the middleware.').answer,
      );
    }
  };
}

/** A 4xx error raised by Express or its body parser: a malformed path or body. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

function malformedMessage(error: unknown): string {
  switch ((error as { type?: unknown }).type) {
    case 'entity.parse.failed':
      return 'The request body is not valid JSON.';
    case 'entity.too.large':
      return 'The request body is too large.';
    default:
      return 'The request is malformed.';
  }
}
