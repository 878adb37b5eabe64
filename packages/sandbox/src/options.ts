/** The options of `startSandbox`, and their parsing into an all-required configuration. */
import { canonicalOrigin } from '@form-embed/protocol';
import { z } from 'zod';

/** A per-key limit: a token bucket refilled at `perMinute`, holding at most `burst`. */
export interface RateLimit {
  /** Sustained rate per key: a finite number > 0. */
  perMinute: number;
  /** Requests a key may send at once: a whole number >= 1. */
  burst: number;
}

/** The per-key limits, `limits` of `startSandbox(options)`. */
export interface SandboxLimits {
  /** Form-session mints per key. Defaults to 120 a minute, bursts to 120 (docs/contract.md#limits). */
  mints?: RateLimit;
  /** Reads (every GET) per key. Defaults to 600 a minute, bursts to 200. */
  reads?: RateLimit;
}

/** Options of `startSandbox(options)`, each optional. */
export interface SandboxOptions {
  /** Port of the API (`baseUrl`). Defaults to `0`, an ephemeral port. */
  port?: number;
  /** Port of the designer forms embed origin. Defaults to `0`. */
  formsPort?: number;
  /** Port of the Core forms embed origin. Defaults to `0`. */
  coreFormsPort?: number;
  /** Whole seconds (at least 1) a single-use handle stays redeemable: `expiresIn`. Defaults to `120`. */
  handleTtlSeconds?: number;
  /** Seconds a signed-in session lasts from mint. Defaults to `1800`. */
  sessionTtlSeconds?: number;
  /** Milliseconds added before every API answer. Defaults to `0`. */
  latencyMs?: number;
  /** Rate limits per key. Defaults to the contract's. */
  limits?: SandboxLimits;
  /** Serve the HTTP control API under `/__sandbox/control/`. Defaults to `false`. */
  controlApi?: boolean;
  /**
   * Web origins (`scheme://host[:port]`) whose pages may call the control API from a browser
   * (CORS); a request from any other `Origin` is refused. Defaults to none.
   */
  controlOrigins?: readonly string[];
}

export interface SandboxConfig {
  port: number;
  formsPort: number;
  coreFormsPort: number;
  handleTtlSeconds: number;
  sessionTtlSeconds: number;
  latencyMs: number;
  limits: Required<SandboxLimits>;
  controlApi: boolean;
  controlOrigins: readonly string[];
}

export const defaultLimits: Required<SandboxLimits> = {
  mints: { perMinute: 120, burst: 120 },
  reads: { perMinute: 600, burst: 200 },
};

/** Any value: the values are checked below, with messages of their own. */
const anyValue = z.unknown();
const rateLimitKeys = z.strictObject({
  perMinute: anyValue,
  burst: anyValue,
} satisfies Record<keyof RateLimit, z.ZodType>);
/**
 * The options' names, every one (tsc fails on one left out), so that an option the sandbox does
 * not know (a typo) is refused, not ignored, as formEmbedSessions refuses its own.
 */
const optionKeys = z
  .strictObject({
    port: anyValue,
    formsPort: anyValue,
    coreFormsPort: anyValue,
    handleTtlSeconds: anyValue,
    sessionTtlSeconds: anyValue,
    latencyMs: anyValue,
    limits: z
      .strictObject({
        mints: rateLimitKeys.partial(),
        reads: rateLimitKeys.partial(),
      } satisfies Record<keyof SandboxLimits, z.ZodType>)
      .partial(),
    controlApi: anyValue,
    controlOrigins: anyValue,
  } satisfies Record<keyof SandboxOptions, z.ZodType>)
  .partial();

/** The first option of `options` the sandbox does not know, by its path (`limits.mint`). */
function unknownOption(options: SandboxOptions): string | undefined {
  const parsed = optionKeys.safeParse(options);
  const issue = parsed.error?.issues.find((one) => one.code === 'unrecognized_keys');
  return issue && [...issue.path, issue.keys[0]].join('.');
}

export function parseOptions(options: SandboxOptions = {}): SandboxConfig {
  const unknown = unknownOption(options);
  if (unknown !== undefined) throw new TypeError(`startSandbox: unknown option ${unknown}`);
  const config: SandboxConfig = {
    port: options.port ?? 0,
    formsPort: options.formsPort ?? 0,
    coreFormsPort: options.coreFormsPort ?? 0,
    handleTtlSeconds: options.handleTtlSeconds ?? 120,
    sessionTtlSeconds: options.sessionTtlSeconds ?? 1800,
    latencyMs: options.latencyMs ?? 0,
    limits: {
      mints: options.limits?.mints ?? defaultLimits.mints,
      reads: options.limits?.reads ?? defaultLimits.reads,
    },
    controlApi: options.controlApi ?? false,
    controlOrigins: [...(options.controlOrigins ?? [])],
  };
  for (const name of ['port', 'formsPort', 'coreFormsPort'] as const) {
    const value = config[name];
    if (!Number.isInteger(value) || value < 0 || value > 65535) {
      throw new TypeError(`startSandbox: option ${name} must be a port number (0 for any)`);
    }
  }
  const { port, formsPort, coreFormsPort } = config;
  const shared = sharedPort({ port, formsPort, coreFormsPort });
  if (shared) {
    throw new TypeError(
      `startSandbox: options ${shared[0]} and ${shared[1]} both name port ${config[shared[0]]}: each listener needs a port of its own`,
    );
  }
  // expiresIn is whole seconds, and 0 only when no handle is issued (docs/contract.md#form-sessions).
  if (!Number.isInteger(config.handleTtlSeconds) || config.handleTtlSeconds < 1) {
    throw new TypeError(
      'startSandbox: option handleTtlSeconds must be a whole number of seconds >= 1 (it is expiresIn)',
    );
  }
  for (const name of ['sessionTtlSeconds', 'latencyMs'] as const) {
    const value = config[name];
    if (!Number.isFinite(value) || value < 0) {
      throw new TypeError(`startSandbox: option ${name} must be a number >= 0`);
    }
  }
  for (const name of ['mints', 'reads'] as const) {
    const { perMinute, burst } = config.limits[name];
    // Infinity would make a token 0 ms and X-RateLimit-Remaining NaN: a load test raises it instead.
    if (!(perMinute > 0 && perMinute < Infinity) || !Number.isInteger(burst) || burst < 1) {
      throw new TypeError(
        `startSandbox: option limits.${name} needs perMinute a finite number > 0 and burst a whole number >= 1`,
      );
    }
  }
  for (const origin of config.controlOrigins) {
    if (!isWebOrigin(origin)) {
      throw new TypeError(
        `startSandbox: option controlOrigins must list origins such as http://localhost:5173, not ${JSON.stringify(origin)}`,
      );
    }
  }
  return config;
}

/**
 * The first two of `ports` that name one fixed port (0, any free port, never clashes): the second
 * listener would fail with EADDRINUSE, read as a port another process holds.
 */
export function sharedPort<Name extends string>(
  ports: Record<Name, number>,
): [Name, Name] | undefined {
  const names = Object.keys(ports) as Name[];
  for (const [index, first] of names.entries()) {
    const second = names
      .slice(index + 1)
      .find((name) => ports[name] !== 0 && ports[name] === ports[first]);
    if (second !== undefined) return [first, second];
  }
  return undefined;
}

/** `http(s)://host[:port]` exactly, as browsers send it in `Origin`: already canonical. */
export function isWebOrigin(value: unknown): boolean {
  return typeof value === 'string' && canonicalOrigin(value) === value;
}
