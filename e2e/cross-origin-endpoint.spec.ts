import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { formEmbedSessions } from '@form-embed/express';
import { fixtureIds } from '@form-embed/sandbox';
import express from 'express';
import { personas } from '../demo/personas.js';
import { signedInPersona } from '../demo/signed-in-persona.js';
import { expect, signIn, test } from './demo-fixture.js';

test('an endpoint on another origin of the portal’s site: the middleware’s allowedOrigins, the element’s allowedEndpointOrigins and credentials', async ({
  page,
  demo,
}) => {
  const sandbox = demo.sandbox;
  if (!sandbox) throw new Error('the e2e demo runs on the sandbox');
  // Another portal instance holding only the middleware, on another port of the demo's host: the
  // demo page calls it cross-origin but same-site, so the portal's session cookie goes along.
  const app = express();
  app.use(
    '/form-sessions',
    formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: (req) => personas[signedInPersona(req)].user,
      allowedOrigins: [demo.url],
    }),
  );
  const server = app.listen(0, 'localhost');
  await once(server, 'listening');
  const api = `http://localhost:${(server.address() as AddressInfo).port}`;
  try {
    // Not the demo's default persona: who the form says is signed in proves the cookie went along.
    await signIn(page, demo, 'megan');
    await page.goto(demo.url);
    const mints: string[] = [];
    page.on('request', (request) => {
      if (request.url().startsWith(api)) mints.push(`${request.method()} ${request.url()}`);
    });
    await page.evaluate(
      ({ api, formId }) => {
        const element = Object.assign(document.createElement('form-embed'), {
          id: 'remote',
          allowedEndpointOrigins: [api],
          requestInit: { credentials: 'include' },
        });
        element.setAttribute('form-id', formId);
        element.setAttribute('endpoint', `${api}/form-sessions`);
        document.body.append(element);
      },
      { api, formId: fixtureIds.forms.microsoft },
    );
    await expect(page.locator('#remote')).toHaveAttribute('state', 'framed');
    await expect(page.frameLocator('#remote iframe').getByText(/megan@/)).toBeVisible();
    expect(mints).toEqual([
      `POST ${api}/form-sessions/forms/${fixtureIds.forms.microsoft}/session`,
    ]);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});
