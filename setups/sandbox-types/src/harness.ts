// A partner's test harness that starts the sandbox in-process, with no Express of its own:
// type-checked with skipLibCheck off, so every type the sandbox publishes must resolve without
// @types/express. `await using` closes the sandbox when the block ends; inside it, the typed
// control client from the browser-safe subpath drives the sandbox over HTTP (as a suite whose
// sandbox runs in Playwright's webServer would): an emptied mint limit, refilled by moving the
// sandbox's clock, then stats. Prints one JSON line of what it saw.
import { defaultServicePaths, expandPath, OrganisationSchema } from '@form-embed/protocol';
import { fixtureIds, startSandbox } from '@form-embed/sandbox';
import {
  type ControlClient,
  type ControlStats,
  controlClient,
} from '@form-embed/sandbox/control-client';

let baseUrl = '';
let seen: Record<string, unknown> = {};
{
  await using sandbox = await startSandbox({ controlApi: true });
  baseUrl = sandbox.baseUrl;
  const authorization = `Bearer ${sandbox.apiKey}`;
  const me = await fetch(`${baseUrl}${defaultServicePaths.me}`, { headers: { authorization } });
  const organisation = OrganisationSchema.parse(await me.json());

  const mint = async (): Promise<number> => {
    const path = expandPath(defaultServicePaths.formSession, {
      formId: fixtureIds.forms.microsoft,
    });
    const answer = await fetch(`${baseUrl}${path}`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({
        user: {
          microsoftTenantId: fixtureIds.tenants.contoso,
          userIdentifier: fixtureIds.users.adele,
        },
      }),
    });
    await answer.body?.cancel();
    return answer.status;
  };
  const control: ControlClient = controlClient(baseUrl);
  await control.exhaustRateLimit('mints');
  const limited = await mint();
  await control.advanceClock(60);
  const minted = await mint();
  const stats: ControlStats = await control.stats();
  // No kind: the designer forms origin moves, as in process.
  const { formsOrigin } = await control.changeFormsDomain();
  seen = {
    status: me.status,
    formsOrigin: organisation.formsOrigin,
    mints: [limited, minted],
    counted: stats.requests[`POST ${defaultServicePaths.formSession}`],
    handles: stats.store.handles,
    moved: formsOrigin !== sandbox.formsOrigin,
  };
}
// The block has ended: the sandbox is closed, so its API refuses the connection.
const closed = await fetch(baseUrl).then(
  () => false,
  () => true,
);
console.log(JSON.stringify({ ...seen, closed }));
