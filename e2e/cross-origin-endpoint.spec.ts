import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formEmbedSessions } from '@form-embed/express';
import { fixtureIds } from '@form-embed/sandbox';
import cors from 'cors';
import express from 'express';
import { personas } from '../demo/personas.js';
import type { Demo } from '../demo/server.js';
import { signedInPersona } from '../demo/signed-in-persona.js';
import { eventsOf, expect, recordEvents, signIn, test } from './demo-fixture.js';

// The demo's pages allow connections to their own origin only (connect-src 'self'); a portal
// whose endpoint is on another origin names it there. These tests are about the endpoint, so
// the pages' policy is set aside rather than widened for a port only they know.
test.use({ bypassCSP: true });

/** An Express app listening on another port of localhost: same site as the demo, another origin. */
async function listenOnLocalhost(app: express.Express): Promise<{ url: string; server: Server }> {
  const server = app.listen(0, 'localhost');
  await once(server, 'listening');
  return { url: `http://localhost:${(server.address() as AddressInfo).port}`, server };
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
}

/**
 * Another portal instance holding only the middleware, which lets the demo's pages call it,
 * signed in by the demo's cookie; `configure` adds routes in front of it.
 */
function portalApi(demo: Demo, configure: (app: express.Express) => void = () => {}) {
  const sandbox = demo.sandbox;
  if (!sandbox) throw new Error('the e2e demo runs on the sandbox');
  const app = express();
  configure(app);
  app.use(
    '/form-sessions',
    formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => personas[signedInPersona(req)].user,
      allowedOrigins: [demo.url],
    }),
  );
  return listenOnLocalhost(app);
}

/** Runs `run` with a `portalApi` of the demo's, closed after it. */
async function withPortalApi(demo: Demo, run: (api: string) => Promise<void>) {
  const { url, server } = await portalApi(demo);
  try {
    await run(url);
  } finally {
    await close(server);
  }
}

/** Puts a `<form-embed id="remote">` on the page whose endpoint is `endpoint` on `api`. */
async function embedRemote(
  page: import('@playwright/test').Page,
  api: string,
  endpoint: string,
  headers: Record<string, string> = {},
) {
  await page.evaluate(
    ({ api, endpoint, formId, headers }) => {
      const element = Object.assign(document.createElement('form-embed'), {
        id: 'remote',
        allowedEndpointOrigins: [api],
        requestInit: { credentials: 'include', headers },
      });
      element.setAttribute('form-id', formId);
      element.setAttribute('endpoint', endpoint);
      document.body.append(element);
    },
    { api, endpoint, formId: fixtureIds.forms.microsoft, headers },
  );
}

test('an endpoint on another origin of the portal’s site: the middleware’s allowedOrigins, the element’s allowedEndpointOrigins and credentials', async ({
  page,
  demo,
}) => {
  await withPortalApi(demo, async (api) => {
    // Not the demo's default persona: who the form says is signed in proves the cookie went along.
    await signIn(page, demo, 'megan');
    await page.goto(demo.url);
    const mints: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(api)) mints.push(`${request.method()} ${request.url()}`);
    });
    await embedRemote(page, api, `${api}/form-sessions`);
    await expect(page.locator('#remote')).toHaveAttribute('state', 'framed');
    await expect(page.frameLocator('#remote iframe').getByText(/megan@/)).toBeVisible();
    expect(mints).toEqual([
      `POST ${api}/form-sessions/forms/${fixtureIds.forms.microsoft}/session`,
    ]);
  });
});

test('a refusal from an endpoint on another origin: the element reads its Retry-After and waits it out', async ({
  page,
  demo,
}) => {
  await withPortalApi(demo, async (api) => {
    await recordEvents(page);
    await page.goto(demo.url);
    await demo.sandbox?.control.exhaustRateLimit('mints');
    await embedRemote(page, api, `${api}/form-sessions`);
    await expect(page.locator('#remote')).toHaveAttribute('state', 'waiting');
    // Unexposed, the header was unreadable: retryAfter undefined, and a retry 1 s later.
    const refused = (await eventsOf(page)).find((e) => e.target === 'remote')?.detail;
    expect(refused).toMatchObject({ code: 'rate_limited', status: 429, willRetry: true });
    expect(refused?.retryAfter).toBeGreaterThan(50);
  });
});

test('a redirect from the endpoint is not followed: the page’s requestInit never reaches another origin', async ({
  page,
  demo,
}) => {
  // Where a redirect (an open redirect on the portal, say) would send the mint and its headers.
  const reached: string[] = [];
  const elsewhere = express();
  elsewhere.use((req, res) => {
    reached.push(`${req.method} ${req.url}`);
    res.status(404).end();
  });
  const other = await listenOnLocalhost(elsewhere);
  // Its preflight granted, so that only the element's own rule can stop the redirect.
  const portal = await portalApi(demo, (app) =>
    app.use('/moved', cors({ origin: demo.url, credentials: true }), (req, res) =>
      res.redirect(307, `${other.url}${req.url}`),
    ),
  );
  try {
    await recordEvents(page);
    await page.goto(demo.url);
    await embedRemote(page, portal.url, `${portal.url}/moved`, { 'X-CSRF-Token': 'csrf-secret' });
    await expect
      .poll(async () => (await eventsOf(page)).find((e) => e.target === 'remote')?.detail)
      .toMatchObject({ code: 'unavailable', status: 0 });
    expect(reached).toEqual([]);
    await expect(page.locator('#remote iframe')).toHaveCount(0);
  } finally {
    await close(portal.server);
    await close(other.server);
  }
});
