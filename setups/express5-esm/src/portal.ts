// A partner's portal: Express 5, ES modules, TypeScript with nodenext. It starts the sandbox by
// its CLI, mounts formEmbedSessions, once more behind its own CSRF token check (as the
// middleware's README suggests), and serves STATIC_DIR when given (the browser setups' pages);
// TRUST_PROXY, when given, is Express's trust proxy; SANDBOX_CONTROL, when given, starts the
// sandbox with its control API (a setup's test sets the latency and reads the counts);
// TIMEOUT_MS, when given, is the middleware's timeoutMs; XSRF_TOKEN, when given, guards
// /form-sessions as Angular's HttpClient expects a portal to (setup 11): every response sets the
// cookie XSRF-TOKEN to it, and a mint must send it back in X-XSRF-TOKEN.
// Prints one JSON line {port, formsOrigin, sandboxUrl} once it listens; SIGTERM stops it and the
// sandbox.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { formEmbedSessions } from '@form-embed/express';
import type { FormSessionUser } from '@form-embed/protocol';
import { fixtureIds } from '@form-embed/sandbox';
import express, { type NextFunction, type Request, type Response } from 'express';

/** What a page sends in `X-CSRF-Token` to mint through `/guarded-form-sessions`. */
const CSRF_TOKEN = 'setup-csrf-token';

interface SandboxAddresses {
  baseUrl: string;
  formsOrigin: string;
  apiKey: string;
}

const sandboxArgs = ['--json', ...(process.env.SANDBOX_CONTROL ? ['--control'] : [])];
const sandboxCli = spawn('node_modules/.bin/form-embed-sandbox', sandboxArgs, {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const [firstLine] = (await once(createInterface({ input: sandboxCli.stdout }), 'line')) as [string];
const sandbox = JSON.parse(firstLine) as SandboxAddresses;

const user: FormSessionUser = {
  microsoftTenantId: fixtureIds.tenants.contoso,
  userIdentifier: fixtureIds.users.adele,
};

const app = express();
// Behind a proxy (the setups' nginx and HAProxy), as the middleware's README says: the number of proxies.
if (process.env.TRUST_PROXY) app.set('trust proxy', Number(process.env.TRUST_PROXY));
const sessions = formEmbedSessions({
  apiKey: sandbox.apiKey,
  baseUrl: sandbox.baseUrl,
  resolveUser: () => user,
  // A setup holding mints at the service longer than the default 10 s sets it.
  ...(process.env.TIMEOUT_MS ? { timeoutMs: Number(process.env.TIMEOUT_MS) } : {}),
});
const xsrfToken = process.env.XSRF_TOKEN;
if (xsrfToken) {
  app.use(function setXsrfCookie(_req: Request, res: Response, next: NextFunction) {
    res.cookie('XSRF-TOKEN', xsrfToken, { sameSite: 'strict' });
    next();
  });
}
app.use(
  '/form-sessions',
  function checkXsrfToken(req: Request, res: Response, next: NextFunction) {
    if (!xsrfToken) return next();
    const cookie = /(?:^|;\s*)XSRF-TOKEN=([^;]*)/.exec(req.get('cookie') ?? '')?.[1];
    if (cookie === xsrfToken && req.get('x-xsrf-token') === xsrfToken) return next();
    res.status(403).json({ code: 'csrf_token_missing', message: 'No valid X-XSRF-TOKEN.' });
  },
  sessions,
);
app.use(
  '/guarded-form-sessions',
  function checkCsrfToken(req: Request, res: Response, next: NextFunction) {
    if (req.get('x-csrf-token') === CSRF_TOKEN) return next();
    res.status(403).json({ code: 'csrf_token_missing', message: 'No valid X-CSRF-Token.' });
  },
  sessions,
);
if (process.env.STATIC_DIR) app.use(express.static(process.env.STATIC_DIR));

const server = app.listen(0, '127.0.0.1');
await once(server, 'listening');
const { port } = server.address() as AddressInfo;
const ready = { port, formsOrigin: sandbox.formsOrigin, sandboxUrl: sandbox.baseUrl };
process.stdout.write(`${JSON.stringify(ready)}\n`);

process.on('SIGTERM', () => {
  sandboxCli.kill('SIGTERM');
  server.close();
  server.closeAllConnections();
});
