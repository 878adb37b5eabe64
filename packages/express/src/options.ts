import {
  defaultServicePaths,
  type FormSessionUser,
  type FormTarget,
  type ServicePaths,
} from '@form-embed/protocol';
import type { Request } from 'express';
import type { Store } from 'express-rate-limit';
import { z } from 'zod';
import type { Logger } from './logger.js';

/** What `resolveUser` returns: the FormSessionRequest `user`, or undefined when nobody is signed in. */
export type ResolvedUser = FormSessionUser | undefined;

/** The per-user limits: of mints, and of catalogue (`GET /forms`) requests. */
export interface MintLimitOptions {
  /** Mints one portal user (or, signed out, one client address) may start per window. Defaults to `10`. */
  mints?: number;
  /** Catalogue requests one portal user (or client address) may make per window. Defaults to `30`. */
  catalogue?: number;
  /** The window in milliseconds, of both limits. Defaults to `60_000` (one minute). */
  windowMs?: number;
  /**
   * Where the counts live: any express-rate-limit `Store` (Redis, Memcached, ...), so several
   * portal instances can share one limit. Defaults to a new in-memory `MemoryStore` per limit.
   */
  store?: Store;
  /**
   * Put before every key, so that two portals (or two mounts) sharing one store never share
   * counts. Defaults to `form-embed:` and the mount path, e.g. `form-embed:/form-sessions:`.
   */
  prefix?: string;
  /**
   * How long a request waits for `store` before it goes on as if the store had failed, in
   * milliseconds. Defaults to `100`.
   */
  storeTimeoutMs?: number;
  /**
   * When `store` fails or does not answer in time: `true` lets the request through uncounted
   * (the service's own limit of 120 mints a minute still guards the organisation), `false`
   * refuses it with `unavailable`. Defaults to `true`.
   */
  passOnStoreError?: boolean;
}

/** Options of `formEmbedSessions(options)`. */
export interface FormEmbedSessionsOptions {
  /** The organisation's API key, sent upstream as `Authorization: Bearer`. Required; never sent to the browser or logged. */
  apiKey: string;
  /**
   * The service's base URL, e.g. `https://api.service.example`, or the sandbox's
   * `baseUrl` from `startSandbox()`. Required.
   */
  baseUrl: string;
  /**
   * Who is signed in, decided on the server from your own session: returns the
   * FormSessionRequest `user` (`{microsoftTenantId?, clientId?, userIdentifier?}`), or undefined
   * when nobody is. May be async. Required. Nothing the browser sends can replace it.
   */
  resolveUser: (req: Request) => ResolvedUser | Promise<ResolvedUser>;
  /**
   * A veto per form: resolve `true` to let this request use `target`; anything else refuses it
   * with `forbidden` (and hides it from the catalogue). May be async. Defaults to allowing all.
   */
  authorize?: (req: Request, target: FormTarget) => boolean | Promise<boolean>;
  /**
   * The upstream paths, relative to `baseUrl`; give only those that differ. Defaults to
   * `defaultServicePaths` from `@form-embed/protocol` (the sandbox's paths).
   */
  paths?: Partial<ServicePaths>;
  /** How long one upstream request may take, in milliseconds, before it counts as `unavailable`. Defaults to `10_000`. */
  timeoutMs?: number;
  /** The per-user mint limit. Defaults to 10 mints per user per minute, in memory. */
  limit?: MintLimitOptions;
  /** Where warnings and errors go. Defaults to `console` (prefixed `[form-embed]`). Lines never carry the key or a handle. */
  logger?: Logger;
  /** The fetch used for upstream requests. Defaults to the global `fetch`. */
  fetch?: typeof fetch;
}

/** The options after `parseOptions()`: every field present. */
export interface FormEmbedSessionsConfig {
  apiKey: string;
  baseUrl: string;
  resolveUser: FormEmbedSessionsOptions['resolveUser'];
  authorize: NonNullable<FormEmbedSessionsOptions['authorize']>;
  paths: ServicePaths;
  timeoutMs: number;
  limit: {
    mints: number;
    catalogue: number;
    windowMs: number;
    store: Store | undefined;
    prefix: string | undefined;
    storeTimeoutMs: number;
    passOnStoreError: boolean;
  };
  logger: Logger;
  fetch: typeof fetch;
}

const isFunction = (value: unknown) => typeof value === 'function';
const fn = <T>(what: string) =>
  z.custom<T>(isFunction, { message: `must be a function (${what})` });

const pathSchema = z
  .string({ error: 'must be a path string' })
  .startsWith('/', 'must be a path starting with "/", relative to baseUrl');

const optionsSchema = z.strictObject({
  apiKey: z
    .string({ error: 'is required: the organisation API key' })
    .refine((key) => key.trim() !== '', 'must not be empty'),
  baseUrl: z
    .string({
      error: "is required: the service's base URL (the sandbox's is startSandbox().baseUrl)",
    })
    .refine(
      (url) => /^https?:$/.test(protocolOf(url)),
      "must be an absolute http(s) URL, e.g. the sandbox's startSandbox().baseUrl",
    ),
  resolveUser: fn<FormEmbedSessionsOptions['resolveUser']>('req) => user | undefined'),
  authorize:
    fn<NonNullable<FormEmbedSessionsOptions['authorize']>>('req, target) => boolean').optional(),
  paths: z
    .strictObject(
      Object.fromEntries(
        Object.keys(defaultServicePaths).map((name) => [name, pathSchema.optional()]),
      ) as Record<keyof ServicePaths, z.ZodOptional<typeof pathSchema>>,
      { error: 'must be an object of upstream paths, e.g. {me: "/api/v1/me"}' },
    )
    .optional(),
  timeoutMs: z
    .int({ error: 'must be a whole number of milliseconds' })
    .positive('must be more than 0')
    .optional(),
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
        windowMs: z
          .int({ error: 'must be a whole number of milliseconds' })
          .min(1000, 'must be at least 1000 (milliseconds)')
          .optional(),
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
        prefix: z.string({ error: 'must be a string' }).optional(),
        storeTimeoutMs: z
          .int({ error: 'must be a whole number of milliseconds' })
          .positive('must be more than 0')
          .optional(),
        passOnStoreError: z.boolean({ error: 'must be true or false' }).optional(),
      },
      {
        error:
          'must be an object: {mints?, catalogue?, windowMs?, store?, prefix?, storeTimeoutMs?, passOnStoreError?}',
      },
    )
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
});

export const defaultTimeoutMs = 10_000;
export const defaultMintLimit = {
  mints: 10,
  catalogue: 30,
  windowMs: 60_000,
  storeTimeoutMs: 100,
  passOnStoreError: true,
} as const;

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
    paths: { ...defaultServicePaths, ...dropUndefined(parsed.paths ?? {}) },
    timeoutMs: parsed.timeoutMs ?? defaultTimeoutMs,
    limit: {
      ...defaultMintLimit,
      ...dropUndefined(limit),
      store: limit.store,
      prefix: limit.prefix,
    },
    logger: parsed.logger ?? consoleLogger,
    fetch: parsed.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  };
}

function describeIssue(issue: z.core.$ZodIssue | undefined): string {
  if (issue === undefined) return 'formEmbedSessions: invalid options';
  if (issue.code === 'unrecognized_keys') {
    const prefix = issue.path.length > 0 ? `${issue.path.join('.')}.` : '';
    const names = issue.keys.map((key) => `\`${prefix}${key}\``).join(', ');
    return `formEmbedSessions: unknown option ${names}`;
  }
  if (issue.path.length === 0) return `formEmbedSessions: options ${issue.message}`;
  return `formEmbedSessions: option \`${issue.path.join('.')}\` ${issue.message}`;
}

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

const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[form-embed] ${message}`, details ?? ''),
  error: (message, details) => console.error(`[form-embed] ${message}`, details ?? ''),
};
