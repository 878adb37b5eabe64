// What the READMEs' server fragments assume of the portal around them, each named by an
// `<!-- snippet assumes: … -->` comment just before its block: only the names it lists are
// imported into the fragment.
import type { FormEmbedSessionsOptions, FormEmbedSessionsRouter } from '@form-embed/express';
import type { Express, Request, RequestHandler } from 'express';

/** The portal's Express app. */
export declare const app: Express;
/** The portal's own session middleware (express-session, cookie-session, ...). */
export declare const yourSessionMiddleware: RequestHandler;
/** The portal's signed-in user, read from its own session. */
export declare function signedInUser(
  req: Request,
): { tenantId: string; clientId: string; upn: string } | undefined;
/** The middleware's Router, mounted as the root README's step 1 mounts it. */
export declare const router: FormEmbedSessionsRouter;
/** The middleware's options, written out in full elsewhere. */
export declare const options: FormEmbedSessionsOptions;
export declare const apiKey: string;
export declare const baseUrl: string;
export declare const resolveUser: FormEmbedSessionsOptions['resolveUser'];
