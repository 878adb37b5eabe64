import { controlClient } from '@form-embed/sandbox/control-client';
import type { SandboxInfo } from './bench-setup.js';

/** The sandbox's HTTP control API (the bench's sandbox runs in a child process). */
export const sandboxControl = (sandbox: SandboxInfo) => controlClient(sandbox.baseUrl);

/** Requests the sandbox's API received, per route (control requests left out). */
export async function upstreamRequests(sandbox: SandboxInfo): Promise<Record<string, number>> {
  const { requests } = await sandboxControl(sandbox).stats();
  return Object.fromEntries(
    Object.entries(requests).filter(([route]) => !route.includes('/__sandbox/')),
  );
}

export const total = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);
