import type { SandboxInfo } from './bench-setup.js';

/** Calls the sandbox's HTTP control API (`POST /__sandbox/control/<action>`). */
export async function sandboxControl<T = Record<string, unknown>>(
  sandbox: SandboxInfo,
  action: 'reset' | 'stats' | 'expire-sessions' | 'latency',
  body: Record<string, unknown> = {},
): Promise<T> {
  const answer = await fetch(`${sandbox.baseUrl}/__sandbox/control/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!answer.ok) throw new Error(`sandbox control ${action} answered ${answer.status}`);
  return (await answer.json()) as T;
}

/** Requests the sandbox's API received, per route (control requests left out). */
export async function upstreamRequests(sandbox: SandboxInfo): Promise<Record<string, number>> {
  const { requests } = await sandboxControl<{ requests: Record<string, number> }>(sandbox, 'stats');
  return Object.fromEntries(
    Object.entries(requests).filter(([route]) => !route.includes('/__sandbox/')),
  );
}

export const total = (counts: Record<string, number>) =>
  Object.values(counts).reduce((sum, count) => sum + count, 0);
