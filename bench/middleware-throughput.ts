import autocannon from 'autocannon';
import { ANCHOR_PATH } from './anchor-proxy.js';
import {
  BENCH_USER,
  PORTAL_MINT_PATH,
  type PortalInfo,
  SANDBOX_MINT_PATH,
  type SandboxInfo,
} from './bench-setup.js';
import type { Figure } from './figure.js';
import { sandboxControl } from './sandbox-control.js';
import { summarize } from './summary.js';

export const LOAD = { connections: 10, durationS: 5, rounds: 3, warmupS: 1 } as const;

type Side = 'direct' | 'through' | 'anchor';

interface Load {
  mintsPerSecond: number;
  p50: number;
  p99: number;
}

type Target = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'body'>;

async function load(target: Target, durationS: number): Promise<Load> {
  const result = await autocannon({
    ...target,
    connections: LOAD.connections,
    duration: durationS,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) {
    throw new Error(
      `middleware-throughput: ${failed} of ${result.requests.total} mints to ${new URL(target.url).pathname} did not answer 2xx`,
    );
  }
  return {
    mintsPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

/**
 * A typical answer time of a hosted API. At 0 ms the comparison measures how two Node processes
 * share two cores more than what the middleware costs; with latency it measures the middleware
 * as a portal meets it. Both are reported, each against the budget.
 */
export const REALISTIC_LATENCY_MS = 50;

/**
 * The same mint load, straight to the sandbox and through `formEmbedSessions` (and, at 0 ms,
 * through the anchor proxy), alternated round by round so every side sees the same machine.
 * The sandbox is reset before each load (its session store starts empty every time).
 */
export async function benchMiddlewareThroughput(
  sandbox: SandboxInfo,
  portal: PortalInfo,
): Promise<Figure[]> {
  const direct: Target = {
    url: `${sandbox.baseUrl}${SANDBOX_MINT_PATH}`,
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ user: BENCH_USER }),
  };
  const through: Target = {
    url: `${portal.url}${PORTAL_MINT_PATH}`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  };
  const anchor: Target = { ...through, url: `${portal.url}${ANCHOR_PATH}` };
  return [
    ...(await compare(sandbox, { direct, through, anchor }, 0)),
    ...(await compare(sandbox, { direct, through }, REALISTIC_LATENCY_MS)),
  ];
}

async function compare(
  sandbox: SandboxInfo,
  targets: Partial<Record<Side, Target>> & { direct: Target; through: Target },
  latencyMs: number,
): Promise<Figure[]> {
  const sides = Object.keys(targets) as Side[];
  const fresh = async () => {
    await sandboxControl(sandbox, 'reset');
    if (latencyMs) await sandboxControl(sandbox, 'latency', { ms: latencyMs });
  };
  for (const side of sides) {
    await fresh();
    await load(targets[side] as Target, LOAD.warmupS);
  }
  const runs: Partial<Record<Side, Load>>[] = [];
  for (let round = 0; round < LOAD.rounds; round++) {
    const run: Partial<Record<Side, Load>> = {};
    for (const side of sides) {
      await fresh();
      run[side] = await load(targets[side] as Target, LOAD.durationS);
    }
    runs.push(run);
  }
  await sandboxControl(sandbox, 'reset');

  const at = latencyMs ? ` (sandbox answering in ${latencyMs} ms)` : ' (sandbox answering at once)';
  const key = latencyMs ? `latency${latencyMs}.` : '';
  const of = (side: Side, field: keyof Load) =>
    summarize(runs.map((run) => run[side]?.[field] ?? 0));
  const ratio = (side: Side) =>
    summarize(
      runs.map((run) => (run[side]?.mintsPerSecond ?? 0) / (run.direct?.mintsPerSecond ?? 1)),
    );
  const figures = (side: Side, label: string): Figure[] => [
    {
      id: `load.${key}${side}.mintsPerSecond`,
      label: `${label}${at}: mints/s`,
      unit: 'mints/s',
      value: of(side, 'mintsPerSecond'),
    },
    {
      id: `load.${key}${side}.p50`,
      label: `${label}${at}: p50 latency`,
      unit: 'ms',
      value: of(side, 'p50'),
    },
    {
      id: `load.${key}${side}.p99`,
      label: `${label}${at}: p99 latency`,
      unit: 'ms',
      value: of(side, 'p99'),
    },
  ];
  return [
    ...figures('direct', 'Straight to the sandbox'),
    ...figures('through', 'Through formEmbedSessions'),
    {
      id: `load.${key}ratio`,
      label: `Middleware / straight, mints/s${at}`,
      unit: 'ratio',
      value: ratio('through'),
      budget: { kind: 'min', value: 0.8 },
    },
    ...(targets.anchor
      ? [
          ...figures('anchor', 'Anchor, bare Express+fetch proxy'),
          {
            id: `load.${key}anchorRatio`,
            label: `Anchor proxy / straight, mints/s${at}`,
            unit: 'ratio' as const,
            value: ratio('anchor'),
          },
        ]
      : []),
  ];
}
