import { defaultServicePaths, originOf } from '@form-embed/protocol';
import type { Store } from 'express-rate-limit';
import { z } from 'zod';
import { consoleLogger } from './console-logger.js';
import type { Logger } from './logger.js';
import {
  defaultCatalogueCacheTtlMs,
  defaultLimits,
  defaultMaxRetryAfterSeconds,
  defaultMaxUpstreamBodyBytes,
  defaultTimeoutMs,
  type FormEmbedSessionsConfig,
  type FormEmbedSessionsOptions,
  type UpstreamPaths,
  upstreamRoutes,
} from './options.js';

const isFunction = (value: unknown) => typeof value === 'function';
const fn = <T>(what: string) => z.custom<T>(isFunction, { message: `must be a function: ${what}` });

// Node runs a longer timer after 1 ms (TimeoutOverflowWarning): a longer window or timeout would
// end at once, not late.
const MAX_TIMER_MS = 2 ** 31 - 1;
const timerMs = (min: number, minMessage: string) =>
  z
    .int({ error: 'must be a whole number of milliseconds' })
    .min(min, minMessage)
    .max(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS} (about 24.8 days, Node's longest timer)`);

const pathSchema = z
  .string({ error: 'must be a path string' })
  .startsWith('/', 'must be a path starting with "/", relative to baseUrl');

const optionsSchema = z.strictObject({
  // Read from a file, a key often ends in a line break: it is trimmed, so that the key sent
  // (fetch trims a header value) and the key cut out of log lines are the same string.
  apiKey: z
    .string({ error: 'is required: the organisation API key' })
    .trim()
    .refine((key) => key !== '', 'must not be empty')
    .refine((key) => !/\s/.test(key), 'must not hold spaces or line breaks inside it'),
  // Trimmed as the key is: a space after it in an .env file went on into every request's URL,
  // which fetch then refused, each mint logged as the service unreachable.
  baseUrl: z
    .string({
      error: "is required: the service's base URL (the sandbox's is startSandbox().baseUrl)",
    })
    .trim()
    .refine(
      (url) => /^https?:$/.test(protocolOf(url)),
      "must be an absolute http(s) URL, e.g. the sandbox's startSandbox().baseUrl",
    )
    .refine(
      (url) => !/[?#]/.test(url),
      "must have no query or fragment (?… or #…): the service's paths go after it",
    ),
  resolveUser: fn<FormEmbedSessionsOptions['resolveUser']>('(req) => user | undefined'),
  authorize: fn<NonNullable<FormEmbedSessionsOptions['authorize']>>(
    '(req, target) => boolean',
  ).optional(),
  paths: z
    .strictObject(
      Object.fromEntries(upstreamRoutes.map((name) => [name, pathSchema.optional()])) as Record<
        keyof UpstreamPaths,
        z.ZodOptional<typeof pathSchema>
      >,
      { error: 'must be an object of upstream paths, e.g. {me: "/api/v1/me"}' },
    )
    .optional(),
  timeoutMs: timerMs(1, 'must be more than 0').optional(),
  limit: z
    .strictObject(
      {
        mints: z
          .int({ error: 'must be a whole number of mints' })
          .positive('must be at least 1')
          .optional(),
        catalogue: z
          .int({ error: 'must be a whole number of requests' })
          .positive('must be at least 1')
          .optional(),
        signedOutMints: z
          .int({ error: 'must be a whole number of mints' })
          .positive('must be at least 1')
          .optional(),
        windowMs: timerMs(1000, 'must be at least 1000 (milliseconds)').optional(),
        store: z
          .custom<Store>(
            (store) =>
              typeof store === 'object' &&
              store !== null &&
              ['increment', 'decrement', 'resetKey'].every((method) =>
                isFunction((store as Record<string, unknown>)[method]),
              ),
            { message: 'must be an express-rate-limit Store (increment, decrement, resetKey)' },
          )
          .optional(),
        prefix: z
          .string({ error: 'must be a string' })
          .refine((prefix) => prefix !== '', 'must not be empty')
          .optional(),
        storeTimeoutMs: timerMs(1, 'must be more than 0').optional(),
        passOnStoreError: z.boolean({ error: 'must be true or false' }).optional(),
      },
      {
        error:
          'must be an object: {mints?, catalogue?, signedOutMints?, windowMs?, store?, prefix?, storeTimeoutMs?, passOnStoreError?}',
      },
    )
    // A shared store needs keys that every instance of one portal builds alike and no other
    // portal or mount does: the mount-path default differs between instances of a mount with
    // parameters, and is the same for two portals mounted at the same path.
    .refine((limit) => limit.store === undefined || limit.prefix !== undefined, {
      path: ['prefix'],
      message:
        "is required with `limit.store`: the same on every instance of this portal, and another for each other portal or mount sharing the store, e.g. 'my-portal:'",
    })
    .optional(),
  logger: z
    .custom<Logger>(
      (logger) =>
        typeof logger === 'object' &&
        logger !== null &&
        isFunction((logger as Logger).warn) &&
        isFunction((logger as Logger).error),
      { message: 'must have warn(message, details) and error(message, details) functions' },
    )
    .optional(),
  fetch: fn<typeof fetch>('a fetch implementation').optional(),
  maxUpstreamBodyBytes: z
    .int({ error: 'must be a whole number of bytes' })
    .min(1024, 'must be at least 1024 (bytes)')
    .optional(),
  maxRetryAfterSeconds: z
    .int({ error: 'must be a whole number of seconds' })
    .min(1, 'must be at least 1 (second)')
    .optional(),
  allowedOrigins: z
    .array(
      z
        .string({ error: 'must hold origins as strings' })
        .refine(
          (origin) => originOf(origin) !== undefined,
          'must hold origins, scheme://host[:port] with no path, e.g. "https://portal.example"',
        ),
      { error: 'must be an array of origins, e.g. ["https://portal.example"]' },
    )
    .optional(),
  catalogue: z
    .strictObject(
      {
        signedOut: z.boolean({ error: 'must be true or false' }).optional(),
        cacheTtlMs: z
          .int({ error: 'must be a whole number of milliseconds' })
          .min(0, 'must be 0 (no cache) or more')
          .optional(),
      },
      { error: 'must be an object: {signedOut?, cacheTtlMs?}' },
    )
    .optional(),
});

/**
 * Validates `options` and fills in the defaults, without touching `options`.
 * Throws a TypeError naming the first bad option.
 */
export function parseOptions(options: FormEmbedSessionsOptions): FormEmbedSessionsConfig {
  const result = optionsSchema.safeParse(options);
  if (!result.success) throw new TypeError(describeIssue(result.error.issues[0]));
  const parsed = result.data;
  const limit = parsed.limit ?? {};
  return {
    apiKey: parsed.apiKey,
    baseUrl: parsed.baseUrl.replace(/\/+$/, ''),
    resolveUser: parsed.resolveUser,
    authorize: parsed.authorize ?? (() => true),
    paths: {
      ...Object.fromEntries(upstreamRoutes.map((name) => [name, defaultServicePaths[name]])),
      ...dropUndefined(parsed.paths ?? {}),
    } as UpstreamPaths,
    timeoutMs: parsed.timeoutMs ?? defaultTimeoutMs,
    limit: {
      ...defaultLimits,
      ...dropUndefined(limit),
      store: limit.store,
      prefix: limit.prefix,
    },
    logger: parsed.logger ?? consoleLogger,
    fetch: parsed.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    maxUpstreamBodyBytes: parsed.maxUpstreamBodyBytes ?? defaultMaxUpstreamBodyBytes,
    maxRetryAfterSeconds: parsed.maxRetryAfterSeconds ?? defaultMaxRetryAfterSeconds,
    allowedOrigins: new Set(
      (parsed.allowedOrigins ?? []).map((origin) => originOf(origin) as string),
    ),
    catalogue: {
      signedOut: parsed.catalogue?.signedOut ?? false,
      cacheTtlMs: parsed.catalogue?.cacheTtlMs ?? defaultCatalogueCacheTtlMs,
    },
  };
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'formEmbedSessions: invalid options';
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
    const names = issue.keys.map((key) => `\`${prefix}${key}\``).join(', ');
    return `formEmbedSessions: unknown option ${names}`;
  }
  if (issue.path.length === 0) {
    return 'formEmbedSessions: pass an options object, `{apiKey, baseUrl, resolveUser}` at least';
  }
  return `formEmbedSessions: option \`${issue.path.join('.')}\` ${issue.message}`;
}

/** The scheme of `url` (`https:`), or `''` when it is not an absolute URL. */
function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

function dropUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, entry]) => entry !== undefined),
  ) as Partial<T>;
}
