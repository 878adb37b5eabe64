// A partner's test harness that starts the sandbox in-process, with no Express of its own:
// type-checked with skipLibCheck off, so every type the sandbox publishes must resolve without
// @types/express. Prints what GET /api/v1/me answered with the sandbox's key.
import { defaultServicePaths, OrganisationSchema } from '@form-embed/protocol';
import { startSandbox } from '@form-embed/sandbox';

const sandbox = await startSandbox();
try {
  const answer = await fetch(`${sandbox.baseUrl}${defaultServicePaths.me}`, {
    headers: { authorization: `Bearer ${sandbox.apiKey}` },
  });
  const me = OrganisationSchema.parse(await answer.json());
  console.log(JSON.stringify({ status: answer.status, formsOrigin: me.formsOrigin }));
} finally {
  await sandbox.close();
}
