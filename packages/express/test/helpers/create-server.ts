import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import express, { type Express, type Router } from 'express';
import { keepIdleConnections } from './idle-connections.js';

/** Closed by `await using server = await createServer(...)`, or by `close()`. */
export interface TestServer extends AsyncDisposable {
  /** The mounted middleware's URL, e.g. `http://127.0.0.1:41234/form-sessions`. */
  endpoint: string;
  close(): Promise<void>;
}

/** A real portal app with `middleware` mounted at `mountPath`, on an ephemeral loopback port. */
export async function createServer(
  middleware: Router,
  mountPath = '/form-sessions',
  configure: (app: Express) => void = () => {},
): Promise<TestServer> {
  const app = express();
  configure(app);
  app.use(mountPath, middleware);
  app.get('/portal-page', (_req, res) => {
    res.type('text/plain').send('the portal itself');
  });
  const server = app.listen(0, '127.0.0.1');
  keepIdleConnections(server);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve, reject) =>
      server.close((error) => (error ? reject(error) : resolve())),
    );
  };
  return { endpoint: `http://127.0.0.1:${port}${mountPath}`, close, [Symbol.asyncDispose]: close };
}
