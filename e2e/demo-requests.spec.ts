import { request as httpRequest } from 'node:http';
import { fixtureIds } from '@form-embed/sandbox';
import { expect, test } from './demo-fixture.js';

/** One request to the demo over node:http, which sends the `Host` it is given (fetch would not). */
function send(
  demoUrl: string,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string }> {
  const { port } = new URL(demoUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: 'localhost', port, path, method: options.method ?? 'GET', headers: options.headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const mintPath = `/form-sessions/forms/${fixtureIds.forms.microsoft}/session`;

test('the demo answers only a loopback Host: a rebound name gets no embedUrl, page or control', async ({
  demo,
}) => {
  const rebound = `rebind.attacker.example:${new URL(demo.url).port}`;
  const asRebound = {
    host: rebound,
    origin: `http://${rebound}`,
    'content-type': 'application/json',
  };
  for (const [path, method] of [
    [mintPath, 'POST'],
    ['/demo/config', 'GET'],
    ['/demo/control/reset', 'POST'],
    ['/', 'GET'],
  ] as const) {
    const body = method === 'POST' ? '{}' : undefined;
    const answer = await send(demo.url, path, {
      method,
      headers: asRebound,
      ...(body && { body }),
    });
    expect(answer.status, `${method} ${path}`).toBe(403);
    expect(answer.text).not.toContain('handle=');
  }
  const local = await send(demo.url, mintPath, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  expect(local.status).toBe(200);
  expect(local.text).toContain('handle=');
});

test("the QA controls take the demo's own pages only: a cross-site POST never reaches the sandbox", async ({
  demo,
}) => {
  const sandbox = demo.sandbox;
  if (!sandbox) throw new Error('the e2e demo runs on the sandbox');
  // Armed before: a reset that reached the sandbox would clear it.
  sandbox.control.fail({ kind: 'error', code: 'forbidden', scope: 'session' });
  const crossSite: Record<string, string>[] = [
    { origin: 'https://attacker.example', 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site', 'content-type': 'text/plain' },
  ];
  for (const headers of crossSite) {
    const answer = await send(demo.url, '/demo/control/reset', {
      method: 'POST',
      headers,
      body: 'x',
    });
    expect(answer.status).toBe(403);
  }
  const json = { 'content-type': 'application/json' };
  const mint = await send(demo.url, mintPath, { method: 'POST', headers: json, body: '{}' });
  expect(mint.status, 'the fault is still armed: no reset reached the sandbox').toBe(403);
  const own = await send(demo.url, '/demo/control/reset', {
    method: 'POST',
    headers: { ...json, origin: demo.url, 'sec-fetch-site': 'same-origin' },
    body: '{}',
  });
  expect(own.status, own.text).toBe(200);
});

test('the QA controls forward only an action name: a dot segment never leaves the control path', async ({
  demo,
}) => {
  const sandbox = demo.sandbox;
  if (!sandbox) throw new Error('the e2e demo runs on the sandbox');
  const requestsTo = () => Object.values(sandbox.control.stats()).reduce((sum, n) => sum + n, 0);
  const before = requestsTo();
  const headers = {
    'content-type': 'application/json',
    origin: demo.url,
    'sec-fetch-site': 'same-origin',
  };
  for (const action of ['..', '%2e%2e', '.%2E', 'reset%2F..']) {
    const answer = await send(demo.url, `/demo/control/${action}`, {
      method: 'POST',
      headers,
      body: '{}',
    });
    expect(answer.status, action).toBe(404);
  }
  expect(requestsTo(), 'no request reached the sandbox').toBe(before);
});

test('a body the demo cannot read is answered in a line of JSON, with no stack', async ({
  demo,
}) => {
  const answer = await send(demo.url, '/demo/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"persona":<script>',
  });
  expect(answer.status).toBe(400);
  expect(JSON.parse(answer.text)).toEqual({
    error: 'The demo could not read the request (send JSON).',
  });
  expect(answer.text).not.toMatch(/node_modules|\n\s+at /);
});
