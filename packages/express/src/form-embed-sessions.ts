import type { EmbedOrigins } from '@form-embed/protocol';
import { CATALOGUE_PATH } from '@form-embed/protocol';
import express, { type Router } from 'express';
import { corsForAllowedOrigins } from './allowed-origins-cors.js';
import { answerError, noSuchRoute } from './answer-error.js';
import { countCatalogueRequest } from './answer-metrics.js';
import { CatalogueReads } from './catalogue-reads.js';
import { catalogueRoute, requireSignInForCatalogue } from './catalogue-route.js';
import { crossSiteGuard } from './csrf.js';
import { EmbedOriginCache } from './embed-origins.js';
import { forwardRejection } from './forward-rejection.js';
import { messageFirst, redactingLogger } from './logger.js';
import { mintRoute } from './mint-route.js';
import type { FormEmbedSessionsOptions } from './options.js';
import { parseOptions } from './parse-options.js';
import { warnOfPlainHttp } from './plain-http-warnings.js';
import { bounded } from './portal-callback.js';
import { withoutRepeats } from './repeated-lines.js';
import { requestLimits } from './request-limits.js';
import { resolveUserOnServer, userResolver } from './resolve-user.js';
import { ServiceClient } from './service-client.js';
import { signedOutRefusal } from './signed-out.js';

/** The Router `formEmbedSessions` returns, which also tells the embed origins it frames from. */
export interface FormEmbedSessionsRouter extends Router {
  /**
   * The organisation's embed origins, `formsOrigin` and `coreFormsOrigin`, as the middleware
   * last read them from `GET /api/v1/me` (it reads them again when a mint's embedUrl is on
   * another): what a page's Content-Security-Policy names in `frame-src`. Waits for the first
   * read; undefined while none has succeeded. Never rejects.
   */
  embedOrigins(): Promise<EmbedOrigins | undefined>;
}

/**
 * The server half of form embedding, as an Express Router to mount under a path of its own
 * (e.g. `app.use('/form-sessions', formEmbedSessions(options))`):
 * `POST /forms/:formId/session`, `POST /core-forms/:slug/session` and `GET /forms`.
 * Throws at once, naming the option, when `options` are not valid.
 */
export function formEmbedSessions(options: FormEmbedSessionsOptions): FormEmbedSessionsRouter {
  const config = parseOptions(options);
  // Redacted first: a line's details are text before they are compared with the last ones, which
  // a value a portal's callback throws (a cycle, a BigInt) could not otherwise be.
  const logger = redactingLogger(withoutRepeats(messageFirst(config.logger)), config.apiKey);
  warnOfPlainHttp(config, logger);
  const client = new ServiceClient({ ...config, logger });
  const embedOrigins = new EmbedOriginCache(client, logger, config.baseUrl);
  embedOrigins.prefetch();
  const reads = new CatalogueReads(client, logger, config.catalogue.cacheTtlMs);
  const limits = requestLimits({ ...config, logger });
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
    timeoutMs: config.timeoutMs,
  });

  const router = express.Router();
  // Nothing the Router answers is cached: a session, a refusal, a menu, an allowed preflight.
  router.use((_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });
  // Before the cross-site check: a preflight from an allowed origin is answered here, and a
  // grant to any other origin taken back from every answer, refusals included.
  router.use(corsForAllowedOrigins(config.allowedOrigins));
  router.use(crossSiteGuard(config.allowedOrigins, logger));
  router.post('/forms/:formId/session', mintSession);
  router.post('/core-forms/:slug/session', mintSession);
  router.get(
    CATALOGUE_PATH,
    countCatalogueRequest,
    forwardRejection(resolveUserOnServer(resolveUser, logger)),
    requireSignInForCatalogue(config.catalogue.signedOut),
    limits.catalogue,
    forwardRejection(catalogueRoute({ reads, authorize, logger })),
  );
  router.use(noSuchRoute);
  router.use(answerError(logger));
  return Object.assign(router, {
    embedOrigins: () => embedOrigins.forPages(),
  });
}
