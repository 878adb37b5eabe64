import { CATALOGUE_MOUNT_PATHS, type PortalInfo, type SandboxInfo } from './bench-setup.js';
import type { Figure } from './figure.js';
import { sandboxControl, total, upstreamRequests } from './sandbox-control.js';
import { summarize } from './summary.js';

const RUNS = { warmup: 3, timed: 30 } as const;

type Side = keyof typeof CATALOGUE_MOUNT_PATHS;

/** One `GET /forms` through the mount of `side`: its time in ms and the upstream reads it cost. */
async function catalogueRequest(sandbox: SandboxInfo, portal: PortalInfo, side: Side) {
  const before = total(await upstreamRequests(sandbox));
  const started = performance.now();
  const answer = await fetch(`${portal.url}${CATALOGUE_MOUNT_PATHS[side]}/forms`);
  await answer.arrayBuffer();
  const ms = performance.now() - started;
  if (answer.status !== 200)
    throw new Error(`catalogue-cache: GET /forms answered ${answer.status}`);
  return { ms, reads: total(await upstreamRequests(sandbox)) - before };
}

/**
 * `GET /forms` with the catalogue cache warm (the default mount, asked again and again) and
 * cold (a mount with `catalogue.cacheTtlMs: 0`, which reads upstream every time), alternated,
 * after a warm-up of each.
 */
export async function benchCatalogueCache(
  sandbox: SandboxInfo,
  portal: PortalInfo,
): Promise<Figure[]> {
  await sandboxControl(sandbox).reset();
  const times: Record<Side, number[]> = { warm: [], cold: [] };
  const reads: Record<Side, number[]> = { warm: [], cold: [] };
  for (let i = 0; i < RUNS.warmup + RUNS.timed; i++) {
    for (const side of ['warm', 'cold'] as const) {
      const run = await catalogueRequest(sandbox, portal, side);
      if (i < RUNS.warmup) continue;
      times[side].push(run.ms);
      reads[side].push(run.reads);
    }
  }
  const row = (side: Side): Figure[] => [
    {
      id: `catalogue.${side}.ms`,
      label: `GET /forms, catalogue cache ${side}`,
      unit: 'ms',
      value: summarize(times[side]),
    },
    {
      id: `catalogue.${side}.upstreamReads`,
      label: `Upstream reads per GET /forms, cache ${side}`,
      unit: 'requests',
      value: summarize(reads[side]),
    },
  ];
  return [
    ...row('warm'),
    ...row('cold'),
    {
      id: 'catalogue.warmOverCold',
      label: 'GET /forms warm / cold (per run pair)',
      unit: 'ratio',
      value: summarize(times.warm.map((ms, i) => ms / (times.cold[i] as number))),
    },
  ];
}
