import autocannon from 'autocannon';
import { ANCHOR_PATH } from './anchor-proxy.js';
import {
  BENCH_USER,
  CPU_PATH,
  PORTAL_MINT_PATH,
  PORTAL_REDIS_MINT_PATH,
  type PortalInfo,
  SANDBOX_MINT_PATH,
  type SandboxInfo,
} from './bench-setup.js';
import type { Figure } from './figure.js';
import { sandboxControl } from './sandbox-control.js';
import { type Summary, summarize } from './summary.js';

export const LOAD = { connections: 10, durationS: 5, rounds: 5, warmupS: 1 } as const;

type Side = 'direct' | 'through' | 'anchor' | 'redis';

interface Load {
  mintsPerSecond: number;
  p50: number;
  p99: number;
  /** The portal's CPU time per answered mint; 0 for the load straight to the sandbox. */
  cpuUsPerMint: number;
}

type Target = Pick<autocannon.Options, 'url' | 'method' | 'headers' | 'body'>;
type Targets = Partial<Record<Side, Target>> & { direct: Target; through: Target };
type Round = Partial<Record<Side, Load>>;

/** The portal's CPU time so far (user + system), in microseconds. */
async function portalCpuUs(portal: PortalInfo): Promise<number> {
  const usage = (await (await fetch(`${portal.url}${CPU_PATH}`)).json()) as NodeJS.CpuUsage;
  return usage.user + usage.system;
}

async function load(target: Target, durationS: number, portal?: PortalInfo): Promise<Load> {
  const cpuBefore = portal ? await portalCpuUs(portal) : 0;
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
  const cpuUs = portal ? (await portalCpuUs(portal)) - cpuBefore : 0;
  return {
    mintsPerSecond: result['2xx'] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuUsPerMint: cpuUs / result['2xx'],
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
 * through the anchor proxy and through the mount whose limits are in Redis), alternated round by
 * round so every side sees the same machine. The sandbox is reset before each load (its session
 * store starts empty every time).
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
  const redis: Target = { ...through, url: `${portal.url}${PORTAL_REDIS_MINT_PATH}` };
  const atOnce = await runRounds(sandbox, portal, { direct, through, anchor, redis }, 0);
  const slow = await runRounds(sandbox, portal, { direct, through }, REALISTIC_LATENCY_MS);
  return [...figuresAtOnce(atOnce), ...figuresWithLatency(slow, REALISTIC_LATENCY_MS)];
}

/**
 * A warm-up of each side, then `LOAD.rounds` rounds of every side in turn: straight to the sandbox
 * first, then the portal's sides, whose order turns by one each round. The portal idles while the
 * load goes straight to the sandbox, and the side measured next cost about 20 µs a mint more than
 * the same side later in the round: in a fixed order one side would pay it in every round.
 */
async function runRounds(
  sandbox: SandboxInfo,
  portal: PortalInfo,
  targets: Targets,
  latencyMs: number,
) {
  const sides = Object.keys(targets) as Side[];
  const fresh = async () => {
    await sandboxControl(sandbox).reset();
    if (latencyMs) await sandboxControl(sandbox).setLatency(latencyMs);
  };
  for (const side of sides) {
    await fresh();
    await load(targets[side] as Target, LOAD.warmupS);
  }
  const rounds: Round[] = [];
  const [first, ...portalSides] = sides as [Side, ...Side[]];
  for (let round = 0; round < LOAD.rounds; round++) {
    const run: Round = {};
    const turn = round % portalSides.length;
    for (const side of [first, ...portalSides.slice(turn), ...portalSides.slice(0, turn)]) {
      await fresh();
      run[side] = await load(
        targets[side] as Target,
        LOAD.durationS,
        side === 'direct' ? undefined : portal,
      );
    }
    rounds.push(run);
  }
  await sandboxControl(sandbox).reset();
  return rounds;
}

const of = (rounds: Round[], side: Side, field: keyof Load): Summary =>
  summarize(rounds.map((run) => run[side]?.[field] ?? 0));

const ratio = (rounds: Round[], side: Side, over: Side): Summary =>
  summarize(
    rounds.map((run) => (run[side]?.mintsPerSecond ?? 0) / (run[over]?.mintsPerSecond ?? 1)),
  );

/** mints/s, p50 and p99 of one side. */
function sideFigures(rounds: Round[], side: Side, label: string, key: string, at: string) {
  const row = (field: keyof Load, what: string, unit: Figure['unit']): Figure => ({
    id: `load.${key}${side}.${field}`,
    label: `${label}${at}: ${what}`,
    unit,
    value: of(rounds, side, field),
  });
  return [
    row('mintsPerSecond', 'mints/s', 'mints/s'),
    row('p50', 'p50 latency', 'ms'),
    row('p99', 'p99 latency', 'ms'),
  ];
}

function figuresAtOnce(rounds: Round[]): Figure[] {
  const at = ' (sandbox answering at once)';
  const ratioRow = (id: string, label: string, side: Side, over: Side, min?: number): Figure => ({
    id: `load.${id}`,
    label: `${label}, mints/s${at}`,
    unit: 'ratio',
    value: ratio(rounds, side, over),
    ...(min === undefined ? {} : { budget: { kind: 'min' as const, value: min } }),
  });
  return [
    ...sideFigures(rounds, 'direct', 'Straight to the sandbox', '', at),
    ...sideFigures(rounds, 'through', 'Through formEmbedSessions', '', at),
    ...sideFigures(rounds, 'anchor', 'Anchor, bare Express+fetch proxy', '', at),
    ...sideFigures(rounds, 'redis', 'Through formEmbedSessions, limits in Redis', '', at),
    ratioRow('ratio', 'Middleware / straight', 'through', 'direct'),
    ratioRow('anchorRatio', 'Anchor proxy / straight', 'anchor', 'direct'),
    ratioRow('overAnchor', 'Middleware / anchor proxy', 'through', 'anchor', 0.9),
    ratioRow('redisOverMemory', 'Limits in Redis / in memory', 'redis', 'through', 0.85),
    ...(['through', 'anchor', 'redis'] as const).map(
      (side): Figure => ({
        id: `portal.cpuPerMint.${side}`,
        label: `Portal CPU per mint, ${side === 'anchor' ? 'anchor proxy' : side === 'redis' ? 'through, limits in Redis' : 'through formEmbedSessions'}${at}`,
        unit: 'µs',
        value: of(rounds, side, 'cpuUsPerMint'),
      }),
    ),
  ];
}

function figuresWithLatency(rounds: Round[], latencyMs: number): Figure[] {
  const at = ` (sandbox answering in ${latencyMs} ms)`;
  const key = `latency${latencyMs}.`;
  const overhead = summarize(rounds.map((run) => (run.through?.p50 ?? 0) - (run.direct?.p50 ?? 0)));
  return [
    ...sideFigures(rounds, 'direct', 'Straight to the sandbox', key, at),
    ...sideFigures(rounds, 'through', 'Through formEmbedSessions', key, at),
    {
      id: `load.${key}ratio`,
      label: `Middleware / straight, mints/s${at}`,
      unit: 'ratio',
      value: ratio(rounds, 'through', 'direct'),
    },
    {
      id: `load.${key}p50Overhead`,
      label: `Middleware p50 - straight p50${at}`,
      unit: 'ms',
      value: overhead,
      budget: { kind: 'max', value: 1 },
    },
  ];
}
