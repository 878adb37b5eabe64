import { CATALOGUE_PATH } from '@form-embed/protocol';
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
  type Router,
} from 'express';
import { corsForAllowedOrigins } from './allowed-origins-cors.js';
import { CatalogueReads } from './catalogue-reads.js';
import { catalogueRoute, requireSignInForCatalogue } from './catalogue-route.js';
import { refuseCrossSite } from './csrf.js';
import { EmbedOrigins } from './embed-origins.js';
import { forwardRejection } from './forward-rejection.js';
import { describe, type Logger, messageFirst, redactingLogger } from './logger.js';
import { mintRoute } from './mint-route.js';
import type { FormEmbedSessionsOptions } from './options.js';
import { parseOptions } from './parse-options.js';
import { perUserLimits } from './per-user-limit.js';
import { bounded } from './portal-callback.js';
import { resolveUserOnServer, userResolver } from './resolve-user.js';
import { ServiceClient } from './service-client.js';
import { SessionErrorResponse, sendSessionError, sessionError } from './session-error-response.js';
import { signedOutRefusal } from './signed-out.js';

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
  const limits = perUserLimits({ ...config, logger });
  // The portal's own callbacks, bound by timeoutMs once, here.
  const resolveUser = bounded('resolveUser', config.resolveUser, config.timeoutMs);
  const authorize = bounded('authorize', config.authorize, config.timeoutMs);
  const mintSession = mintRoute({
    client,
    embedOrigins,
    authorize,
    logger,
    resolveUser: userResolver(resolveUser, logger),
    refuseSignedOut: signedOutRefusal(reads, logger),
    mintLimit: limits.mint,
    signedOutMintLimit: limits.signedOutMint,
  });

  const router = express.Router();
  // Before the cross-site check: a preflight from an allowed origin is answered here.
  if (config.allowedOrigins.size > 0) router.use(corsForAllowedOrigins(config.allowedOrigins));
  router.use(noStoreSameSite(config.allowedOrigins, foreignOriginWarnings(logger)));
  router.post('/forms/:formId/session', mintSession);
  router.post('/core-forms/:slug/session', mintSession);
  router.get(
    CATALOGUE_PATH,
    forwardRejection(resolveUserOnServer(resolveUser, logger)),
    requireSignInForCatalogue(config.catalogue.anonymous),
    limits.catalogue,
    forwardRejection(catalogueRoute({ reads, authorize, logger })),
  );
  router.use(noSuchRoute);
  router.use(answerError(logger));
  return router;
}

/** How many distinct refused origins are logged; past that, refusals are only answered. */
const LOGGED_FOREIGN_ORIGINS = 10;

/**
 * Logs a refused origin once: behind a proxy that Express's `trust proxy` does not know, the
 * portal's own pages look foreign (https against http, or another host), and every mint is
 * refused as `forbidden` with nothing in the log. A flood of origins logs ten lines at most.
 */
function foreignOriginWarnings(logger: Logger): (origin: string, own: string) => void {
  const told = new Set<string>();
  return (origin, own) => {
    const pair = `${origin} ${own}`;
    if (told.has(pair) || told.size >= LOGGED_FOREIGN_ORIGINS) return;
    told.add(pair);
    logger.warn(
      `refused a request from ${origin.slice(0, 200)}: this router's own origin is ${own}. If that page is the portal's, behind a proxy set Express's trust proxy (app.set('trust proxy', 1)), or list the origin in allowedOrigins`,
    );
  };
}

function noSuchRoute(): never {
  throw sessionError('not_found', 'No such form-session route.');
}

/** On every route: nothing is cached, and a request from another site is refused (`refuseCrossSite`). */
function noStoreSameSite(
  allowedOrigins: ReadonlySet<string>,
  onForeignOrigin: (origin: string, own: string) => void,
): RequestHandler {
  return function noStoreSameSite(req: Request, res: Response, next: NextFunction): void {
    res.set('Cache-Control', 'no-store');
    refuseCrossSite(req, allowedOrigins, onForeignOrigin);
    next();
  };
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
      sendSessionError(res, sessionError('invalid_request', 'The request is malformed.').answer);
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

/** A 4xx error raised by Express: a malformed path. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}
