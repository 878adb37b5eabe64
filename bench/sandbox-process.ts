/**
 * The sandbox in a process of its own (the service is another machine in production), with
 * the control API on and its per-key limits raised far above what the bench sends.
 */
import { startSandbox } from '@form-embed/sandbox';
import { RAISED_SANDBOX_LIMIT, type SandboxInfo } from './bench-setup.js';
import { exitWithParent } from './child-process.js';

const sandbox = await startSandbox({
  controlApi: true,
  limits: { mints: RAISED_SANDBOX_LIMIT, reads: RAISED_SANDBOX_LIMIT },
});
exitWithParent(() => sandbox.close());
const info: SandboxInfo = {
  baseUrl: sandbox.baseUrl,
  formsOrigin: sandbox.formsOrigin,
  apiKey: sandbox.apiKey,
};
process.stdout.write(`${JSON.stringify(info)}\n`);
