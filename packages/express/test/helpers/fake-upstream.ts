import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { keepIdleConnections } from './idle-connections.js';

/** Closed by `await using upstream = await startFakeUpstream(...)`, or by `close()`. */
export interface FakeUpstream extends AsyncDisposable {
  baseUrl: string;
  /** Requests received, as `METHOD /path`, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on loopback standing in for a broken service: `answer` decides every
 * answer. For what the sandbox cannot be made to do (a 431 with no body, a 64 MiB body).
 */
export async function startFakeUpstream(
  answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
): Promise<FakeUpstream> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    void Promise.resolve(answer(req, res)).catch(() => res.destroy());
  });
  keepIdleConnections(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { baseUrl: `http://127.0.0.1:${port}`, requests, close, [Symbol.asyncDispose]: close };
}

/** The Organisation a fake upstream answers on `GET /api/v1/me`. */
export const fakeOrganisation = {
  organisationId: 'org_fake',
  displayName: 'Fake organisation',
  formsOrigin: 'https://forms.fake.example',
  coreFormsOrigin: 'https://core.fake.example',
};

/** Answers `GET /api/v1/me` with `fakeOrganisation`; true when it did. */
export function answerMe(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== 'GET' || req.url !== '/api/v1/me') return false;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(fakeOrganisation));
  return true;
}
