import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formEmbedSessions, type LimitCounts } from '@form-embed/express';
import type { FormSessionUser } from '@form-embed/protocol';
import { type Sandbox, startSandbox } from '@form-embed/sandbox';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Store } from 'express-rate-limit';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { servePolicy } from './content-security-policy.js';
import { controlProxy } from './control-proxy.js';
import { demoOnLoopbackOnly, sameOriginOnly } from './local-requests.js';
import { isPersonaId, personas } from './personas.js';
import {
  PERSONA_COOKIE,
  SIGNED_OUT_COOKIE,
  signedInPersona,
  signedOutPersona,
} from './signed-in-persona.js';

export interface DemoOptions {
  /** Port of the portal on `localhost`. Defaults to 5173; 0 picks a free one. */
  port?: number;
  /** A real service instead of the sandbox: its base URL, API key and the user to mint for. */
  service?: { baseUrl: string; apiKey: string; user: FormSessionUser | undefined };
  /** The middleware's limits a minute (`limit.mints`, `catalogue`, `signedOutMints`). */
  limits?: Pick<LimitCounts, 'mints' | 'catalogue' | 'signedOutMints'>;
  /** How long the middleware keeps the catalogue's reads (`catalogue.cacheTtlMs`); 0 for none. */
  catalogueCacheTtlMs?: number;
  /** Where the middleware keeps its per-user counts (`limit.store`). Defaults to memory. */
  limitStore?: Store;
  /**
   * A folder holding the demo's pages built by `vite build` (see `e2e/global-setup.ts`), served
   * as files instead of through Vite's dev server: the e2e suite builds once for every worker.
   */
  pages?: string;
}

export interface Demo {
  url: string;
  /** The sandbox the demo started, unless it runs on a real service. */
  sandbox: Sandbox | undefined;
  close(): Promise<void>;
}

/** The QA portal: the middleware mounted at /form-sessions and the demo pages through Vite. */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const app = express();
  app.disable('x-powered-by');
  app.use(demoOnLoopbackOnly);
  const server = createServer(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 5173, 'localhost', resolve);
  });
  const url = `http://localhost:${(server.address() as AddressInfo).port}`;
  let sandbox: Sandbox | undefined;
  let vite: ViteDevServer | undefined;
  const close = async () => {
    // Vite first: its HMR websocket is an upgraded connection of `server`, which
    // closeAllConnections does not end and server.close would wait for while a tab is open.
    await vite?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await sandbox?.close();
  };
  try {
    sandbox = options.service ? undefined : await startSandbox({ controlApi: true });
    const portal = mountPortal(app, options, sandbox);
    // After the portal's JSON routes. The sandbox's origins are read from its control: a new
    // forms domain is in the next page's policy at once, before any mint has met it.
    const control = sandbox?.control;
    app.use(servePolicy(control ? async () => control.embedOrigins() : portal.embedOrigins));
    if (options.pages) app.use(express.static(options.pages));
    else {
      vite = await startVite(server);
      app.use(vite.middlewares);
    }
    app.use(answerError);
  } catch (error) {
    await close();
    throw error;
  }
  return { url, sandbox, close };
}

/** Vite's dev server as middleware; its websocket shares the demo's port: demos can run at once. */
function startVite(server: Server): Promise<ViteDevServer> {
  return createViteServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    server: { middlewareMode: true, hmr: { server } },
    logLevel: 'warn',
  });
}

/** The middleware on the sandbox (as the signed-in persona) or on the real service. */
function mountPortal(app: express.Express, options: DemoOptions, sandbox: Sandbox | undefined) {
  const service = options.service ?? sandbox;
  if (!service) throw new Error('unreachable: a demo runs on a service or on the sandbox');
  const realUser = options.service?.user;
  const portal = formEmbedSessions({
    apiKey: service.apiKey,
    baseUrl: service.baseUrl,
    resolveUser: (req) => (sandbox ? personas[signedInPersona(req)].user : realUser),
    limit: options.limitStore
      ? { ...options.limits, store: options.limitStore, prefix: 'form-embed-demo:' }
      : { ...options.limits },
    // The signed-out persona still sees the forms that need no user.
    catalogue: { signedOut: true, cacheTtlMs: options.catalogueCacheTtlMs },
  });
  app.use('/form-sessions', portal);
  mountDemoRoutes(app, sandbox, realUser);
  return portal;
}

const cookieOptions = { httpOnly: true, sameSite: 'lax', path: '/' } as const;

/** The QA console's own routes: its configuration, persona sign-in and out, the control proxy. */
function mountDemoRoutes(
  app: express.Express,
  sandbox: Sandbox | undefined,
  serviceUser: FormSessionUser | undefined,
) {
  app.get('/demo/config', function demoConfig(req, res) {
    res.set('Cache-Control', 'no-store').json({
      mode: sandbox ? 'sandbox' : 'service',
      // On a real service, the user every mint is for (FORM_EMBED_USER), none when it is unset.
      serviceUser: sandbox ? undefined : (serviceUser ?? null),
      persona: sandbox ? signedInPersona(req) : undefined,
      // Nobody is signed in after the console's Sign out: whom its Sign in again brings back.
      signedOut: sandbox ? signedOutPersona(req) : undefined,
      personas: sandbox
        ? Object.entries(personas).map(([id, { label, expect }]) => ({ id, label, expect }))
        : [],
    });
  });
  app.post('/demo/sign-in', express.json(), function signIn(req, res) {
    const persona = req.body?.persona;
    if (!sandbox || !isPersonaId(persona)) {
      res.status(400).json({ error: 'sign-in takes {persona} with a persona id, on the sandbox' });
      return;
    }
    res.cookie(PERSONA_COOKIE, persona, cookieOptions);
    res.clearCookie(SIGNED_OUT_COOKIE, cookieOptions);
    res.status(204).end();
  });
  // The portal's session ends, as a real portal's Sign out would end it, and stays ended through
  // a reload; the console's Sign in again (a sign-in) brings back the persona signed out.
  app.post('/demo/sign-out', sameOriginOnly, function signOut(req, res) {
    if (!sandbox) {
      res.status(400).json({ error: 'sign-out signs a persona out, on the sandbox' });
      return;
    }
    const persona = signedInPersona(req);
    res.cookie(PERSONA_COOKIE, 'anonymous', cookieOptions);
    // Signed out twice (another tab), the first one's persona is still the one to bring back.
    if (persona !== 'anonymous') res.cookie(SIGNED_OUT_COOKIE, persona, cookieOptions);
    res.status(204).end();
  });
  if (sandbox) app.use('/demo/control', sameOriginOnly, controlProxy(sandbox.baseUrl));
}

/** A request the demo's own routes cannot read (a body that is not JSON): a line, no stack. */
function answerError(error: unknown, _req: Request, res: Response, _next: NextFunction) {
  const status = (error as { status?: unknown } | undefined)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    res.status(status).json({ error: 'The demo could not read the request (send JSON).' });
    return;
  }
  console.error('[demo]', error);
  res.status(500).json({ error: 'The demo failed; its terminal says why.' });
}
