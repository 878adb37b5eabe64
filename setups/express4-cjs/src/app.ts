// A CommonJS Express 4 app: TypeScript compiles these imports to require() calls, which load the
// ES-module packages through Node's require(esm). It mints, then proves that an async failure
// inside the middleware still answers (Express 4 does not forward rejected promises itself).
// The sandbox's control client, required from its own subpath (typesVersions under node10),
// counts the two mints.
import assert = require('node:assert/strict');
import express = require('express');

import { formEmbedSessions } from '@form-embed/express';
import {
  defaultServicePaths,
  type MintResponse,
  type SessionErrorBody,
} from '@form-embed/protocol';
import { fixtureIds, startSandbox } from '@form-embed/sandbox';
import { controlClient } from '@form-embed/sandbox/control-client';

async function main(): Promise<void> {
  const sandbox = await startSandbox({ controlApi: true });
  const app = express();
  app.use(
    '/form-sessions',
    formEmbedSessions({
      apiKey: sandbox.apiKey,
      baseUrl: sandbox.baseUrl,
      resolveUser: () => ({
        microsoftTenantId: fixtureIds.tenants.contoso,
        userIdentifier: fixtureIds.users.adele,
      }),
    }),
  );
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const mint = (formId: string) =>
    fetch(`http://127.0.0.1:${port}/form-sessions/forms/${formId}/session`, {
      method: 'POST',
      // What a browser sends on its own page's POST: Express 4's req.host has no port, so the
      // Origin check must read the port itself.
      headers: {
        'content-type': 'application/json',
        origin: `http://127.0.0.1:${port}`,
        'sec-fetch-site': 'same-origin',
      },
      body: '{}',
      signal: AbortSignal.timeout(10_000),
    });
  try {
    const minted = await mint(fixtureIds.forms.microsoft);
    assert.equal(minted.status, 200);
    const session = (await minted.json()) as MintResponse;
    assert.ok(session.embedUrl.startsWith(`${sandbox.formsOrigin}/`), session.embedUrl);

    const missing = await mint(fixtureIds.forms.missing);
    assert.equal(missing.status, 404);
    assert.equal(((await missing.json()) as SessionErrorBody).error.code, 'form_not_found');
    const { requests } = await controlClient(sandbox.baseUrl).stats();
    const mints = requests[`POST ${defaultServicePaths.formSession}`];
    console.log(
      `minted on ${session.embedOrigin}; a missing form answered form_not_found; the control client counted ${mints} mints`,
    );
  } finally {
    server.close();
    server.closeAllConnections();
    await sandbox.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
