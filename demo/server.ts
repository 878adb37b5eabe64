import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formEmbedSessions } from '@form-embed/express';
import type { FormSessionUser } from '@form-embed/protocol';
import { type SandboxOptions, startSandbox } from '@form-embed/sandbox';
import express from 'express';
import type { Store } from 'express-rate-limit';
import { createServer as createViteServer, type ViteDevServer } from 'vite';
import { controlProxy } from './control-proxy.js';
import { isPersonaId, personas } from './personas.js';
import { PERSONA_COOKIE, signedInPersona } from './signed-in-persona.js';

export interface DemoOptions {
  /** Port of the portal on `localhost`. Defaults to 5173; 0 picks a free one. */
  port?: number;
  /** A real service instead of the sandbox: its base URL, API key and the user to mint for. */
  service?: { baseUrl: string; apiKey: string; user: FormSessionUser | undefined };
  /** Options of the sandbox the demo starts when no `service` is given. */
  sandbox?: SandboxOptions;
  /** The per-user mint limit of the middleware, per minute. */
  mintsPerMinute?: number;
  /** Where the middleware keeps its per-user counts (`limit.store`). Defaults to memory. */
  limitStore?: Store;
}

export interface Demo {
  url: string;
  mode: 'sandbox' | 'service';
  sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  close(): Promise<void>;
}

/** The QA portal: the middleware mounted at /form-sessions and the demo pages through Vite. */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
  const sandbox = options.service
    ? undefined
    : await startSandbox({ controlApi: true, ...options.sandbox });
  const service = options.service ?? sandbox;
  if (!service) throw new Error('unreachable: a demo runs on a service or on the sandbox');
  const realUser = options.service?.user;

  const app = express();
  app.disable('x-powered-by');
  app.use(
    '/form-sessions',
    formEmbedSessions({
      apiKey: service.apiKey,
      baseUrl: service.baseUrl,
      resolveUser: (req) => (sandbox ? personas[signedInPersona(req)].user : realUser),
      limit: { mints: options.mintsPerMinute, store: options.limitStore },
    }),
  );

  app.get('/demo/config', (req, res) => {
    res.set('Cache-Control', 'no-store').json({
      mode: sandbox ? 'sandbox' : 'service',
      persona: sandbox ? signedInPersona(req) : undefined,
      personas: sandbox
        ? Object.entries(personas).map(([id, { label, expect }]) => ({ id, label, expect }))
        : [],
      embedOrigins: sandbox
        ? { formsOrigin: sandbox.formsOrigin, coreFormsOrigin: sandbox.coreFormsOrigin }
        : undefined,
    });
  });
  app.post('/demo/sign-in', express.json(), (req, res) => {
    const persona = req.body?.persona;
    if (!sandbox || !isPersonaId(persona)) {
      res.status(400).json({ error: 'sign-in takes {persona} with a persona id, on the sandbox' });
      return;
    }
    res.cookie(PERSONA_COOKIE, persona, { httpOnly: true, sameSite: 'lax', path: '/' });
    res.status(204).end();
  });
  if (sandbox) app.use('/demo/control', controlProxy(sandbox.baseUrl));

  // Vite's websocket shares the demo's port, so several demos (and tests) can run at once.
  const server = createServer(app);
  const vite: ViteDevServer = await createViteServer({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    server: { middlewareMode: true, hmr: { server } },
    logLevel: 'warn',
  });
  app.use(vite.middlewares);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 5173, 'localhost', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://localhost:${port}`,
    mode: sandbox ? 'sandbox' : 'service',
    sandbox,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await vite.close();
      await sandbox?.close();
    },
  };
}
