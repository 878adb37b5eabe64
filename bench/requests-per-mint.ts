import {
  PORTAL_MINT_PATH,
  type PortalInfo,
  SANDBOX_MINT_PATH,
  type SandboxInfo,
} from './bench-setup.js';
import type { Figure } from './figure.js';
import { sandboxControl, total, upstreamRequests } from './sandbox-control.js';
import { exactly } from './summary.js';

const MINTS = 200;
const COLD_CONCURRENT = 10;

async function mint(portal: PortalInfo): Promise<void> {
  const answer = await fetch(`${portal.url}${PORTAL_MINT_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  await answer.arrayBuffer();
  if (answer.status !== 200) throw new Error(`requests-per-mint: a mint answered ${answer.status}`);
}

/**
 * Upstream requests per mint, counted by the sandbox. Must run on a portal that has not minted
 * yet: the first 10 mints go at once, as a page of several embeds would send them; every mint
 * must cost exactly one upstream request (the embed origins were fetched at creation).
 */
export async function benchRequestsPerMint(
  sandbox: SandboxInfo,
  portal: PortalInfo,
): Promise<Figure[]> {
  await sandboxControl(sandbox).reset();
  await Promise.all(Array.from({ length: COLD_CONCURRENT }, () => mint(portal)));
  const cold = await upstreamRequests(sandbox);
  for (let sent = COLD_CONCURRENT; sent < MINTS; sent += COLD_CONCURRENT) {
    await Promise.all(Array.from({ length: COLD_CONCURRENT }, () => mint(portal)));
  }
  const all = await upstreamRequests(sandbox);
  const mintRoute = `POST ${SANDBOX_MINT_PATH.replace('form_open', '{formId}')}`;
  const steady = (total(all) - total(cold)) / (MINTS - COLD_CONCURRENT);
  return [
    {
      id: 'upstream.perMint.steady',
      label: `Upstream requests per mint, steady (mints ${COLD_CONCURRENT + 1}..${MINTS})`,
      unit: 'requests',
      value: exactly(steady),
      budget: { kind: 'exact', value: 1 },
    },
    {
      id: 'upstream.perMint.overall',
      label: `Upstream requests per mint, all ${MINTS} (first ${COLD_CONCURRENT} cold, at once)`,
      unit: 'requests',
      value: exactly(total(all) / MINTS),
      note: `${total(all)} upstream for ${MINTS} mints (${all[mintRoute] ?? 0} mints upstream)`,
    },
    {
      id: 'upstream.me',
      label: 'Upstream GET /api/v1/me during all mints (fetched at creation, cached)',
      unit: 'requests',
      value: exactly(all['GET /api/v1/me'] ?? 0),
      // The middleware fetches the embed origins when it is created, before this count starts:
      // 0 here; 1 if that first fetch had failed; more would mean no caching.
      budget: { kind: 'max', value: 1 },
    },
  ];
}
