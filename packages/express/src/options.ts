import type { FormSessionUser, FormTarget, ServicePaths } from '@form-embed/protocol';
import type { Request } from 'express';
import type { Store } from 'express-rate-limit';
import type { Logger } from './logger.js';

/** The service's endpoints the middleware calls (docs/contract.md#paths-we-chose). */
export const upstreamRoutes = [
  'me',
  'forms',
  'clients',
  'client',
  'coreForms',
  'formSession',
  'coreFormSession',
] as const satisfies readonly (keyof ServicePaths)[];

/** The two form-session endpoints, which answer every refusal of theirs as a SessionError. */
export function isFormSessionRoute(route: keyof UpstreamPaths): boolean {
  return route === 'formSession' || route === 'coreFormSession';
}

/** The paths of `upstreamRoutes`, relative to `baseUrl`. */
export type UpstreamPaths = Pick<ServicePaths, (typeof upstreamRoutes)[number]>;

/**
 * What `resolveUser` returns: the FormSessionRequest `user`, or undefined (null too) when nobody
 * is signed in.
 */
export type ResolvedUser = FormSessionUser | undefined;

/**
 * The limits: per user (or, signed out, per client address) of mints and of catalogue
 * (`GET /forms`) requests, and of the mints everyone signed out shares. Kept in memory, or in a
 * `store` with its `prefix`.
 */
export type LimitOptions = LimitCounts & (InMemoryLimits | SharedLimits);

/** What the limits allow, and how a store is waited for. */
export interface LimitCounts {
  /** Mints one portal user (or, signed out, one client address) may start per window. Defaults to `30`. */
  mints?: number;
  /** Catalogue requests one portal user (or client address) may make per window. Defaults to `30`. */
  catalogue?: number;
  /**
   * Mints that everyone signed out, together, may send upstream per window: the rest of the
   * organisation's 120 a minute stays for signed-in users, however many addresses a flood
   * comes from. Counted by each instance on its own unless `store` is shared: two instances in
   * memory let 120 through. Defaults to `60`.
   */
  signedOutMints?: number;
  /** The window in milliseconds, of every limit. Defaults to `60_000` (one minute). */
  windowMs?: number;
  /**
   * How long a request waits for `store` before it goes on as if the store had failed, in
   * milliseconds. Defaults to `250`.
   */
  storeTimeoutMs?: number;
  /**
   * When `store` fails or does not answer in time: `true` lets the request through uncounted
   * (the service's own limit of 120 mints a minute still guards the organisation), `false`
   * refuses it with `unavailable`. Defaults to `true`.
   */
  passOnStoreError?: boolean;
}

/** The default: an in-memory store per limit, of at most 50,000 keys (the least recently counted go first). */
export interface InMemoryLimits {
  store?: undefined;
  /**
   * Put before every key. Defaults to `form-embed:` and the mount path, e.g.
   * `form-embed:/form-sessions:`.
   */
  prefix?: string;
}

/** Counts in a store several portal instances share (Redis, Memcached, ...). */
export interface SharedLimits {
  /** Any express-rate-limit `Store`, of this router's own (no other rate limiter's). */
  store?: Store;
  /**
   * Put before every key, so that two portals (or two mounts) sharing one store never share
   * counts: the same on every instance of one portal. Required with a store.
   */
  prefix: string;
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
   * (or null) when nobody is. May be async. Required. Nothing the browser sends can replace it.
   */
  resolveUser: (req: Request) => ResolvedUser | null | Promise<ResolvedUser | null>;
  /**
   * A veto per form: resolve `true` to let this request use `target`; anything else refuses it
   * with `forbidden` (and hides it from the catalogue). May be async. Defaults to allowing all.
   */
  authorize?: (req: Request, target: FormTarget) => boolean | Promise<boolean>;
  /**
   * The upstream paths, relative to `baseUrl`; give only those that differ. Defaults to
   * `defaultServicePaths` from `@form-embed/protocol` (the sandbox's paths).
   */
  paths?: Partial<UpstreamPaths>;
  /**
   * How long one upstream request may take, in milliseconds, before it counts as `unavailable`;
   * also how long one call of `resolveUser` or `authorize` may take before it counts as
   * `internal_error`. Defaults to `10_000`.
   */
  timeoutMs?: number;
  /**
   * The limits: 30 mints and 30 catalogue requests per user (or client address) a minute, and
   * 60 mints for everyone signed out, by default, in memory.
   */
  limit?: LimitOptions;
  /** Where warnings and errors go. Defaults to `console` (prefixed `[form-embed]`). Lines never carry the key or a handle. */
  logger?: Logger;
  /**
   * The fetch used for upstream requests. Defaults to the global `fetch`. It must refuse a
   * redirect when asked (`redirect: 'error'`); a refusal whose `cause` does not say
   * `unexpected redirect`, as Node's does, is answered as `unavailable`.
   */
  fetch?: typeof fetch;
  /**
   * The most bytes read of one upstream answer; a longer answer is cut off and counts as not in
   * the documented shape (`internal_error`). Defaults to `1_048_576` (1 MiB).
   */
  maxUpstreamBodyBytes?: number;
  /**
   * The longest `Retry-After` passed to the browser, in seconds; a longer upstream one is
   * lowered to this. Defaults to `120`.
   */
  maxRetryAfterSeconds?: number;
  /**
   * Origins besides the portal's own (`https://portal.example`) whose pages may call the
   * middleware, e.g. a sibling subdomain. Defaults to none.
   */
  allowedOrigins?: readonly string[];
  /** The catalogue (`GET /forms`). */
  catalogue?: CatalogueOptions;
}

/** Options of the catalogue, `GET /forms`. */
export interface CatalogueOptions {
  /**
   * Answer a signed-out request (`resolveUser` returned undefined or null) with the forms that
   * need no user, instead of `sign_in_required`. Defaults to `false`.
   */
  signedOut?: boolean;
  /**
   * How long the organisation's forms, Core forms and each client's tenant, read for the
   * catalogue, are reused, in milliseconds. Defaults to `30_000`.
   */
  cacheTtlMs?: number;
}

/** The options after `parseOptions()`: every field present. */
export interface FormEmbedSessionsConfig {
  apiKey: string;
  baseUrl: string;
  resolveUser: FormEmbedSessionsOptions['resolveUser'];
  authorize: NonNullable<FormEmbedSessionsOptions['authorize']>;
  paths: UpstreamPaths;
  timeoutMs: number;
  limit: {
    mints: number;
    catalogue: number;
    signedOutMints: number;
    windowMs: number;
    store: Store | undefined;
    prefix: string | undefined;
    storeTimeoutMs: number;
    passOnStoreError: boolean;
  };
  logger: Logger;
  fetch: typeof fetch;
  maxUpstreamBodyBytes: number;
  maxRetryAfterSeconds: number;
  /** Canonical origins (`scheme://host[:port]`). */
  allowedOrigins: ReadonlySet<string>;
  catalogue: Required<CatalogueOptions>;
}

export const defaultTimeoutMs = 10_000;
export const defaultLimits = {
  mints: 30,
  catalogue: 30,
  signedOutMints: 60,
  windowMs: 60_000,
  storeTimeoutMs: 250,
  passOnStoreError: true,
} as const;

export const defaultMaxUpstreamBodyBytes = 1_048_576;
export const defaultMaxRetryAfterSeconds = 120;
export const defaultCatalogueCacheTtlMs = 30_000;
