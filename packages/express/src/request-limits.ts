import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { BoundedMemoryStore } from './bounded-memory-store.js';
import { isBrowserGone } from './browser-gone.js';
import { GuardedStore, StoreBypassed } from './guarded-store.js';
import { type LimitName, limitKey, mountPathPrefix } from './limit-key.js';
import { describe, type Logger } from './logger.js';
import { recordLimitRefusal } from './metrics.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { proxyWarnings } from './proxy-warnings.js';
import { resolvedUserOf } from './resolve-user.js';
import { cappedRetryAfter, sendSessionError, sessionError } from './session-error-response.js';

/**
 * The limits, kept by express-rate-limit in `limit.store` (one in-memory store each by default).
 * Per user: `mint` allows `limit.mints` mints per `limit.windowMs`, so nobody alone can spend the
 * organisation's 120 mints a minute; `catalogue` allows `limit.catalogue` `GET /forms`. Each
 * counts the user `resolveUser` returned (the client address when nobody is signed in), under
 * the keys `limitKey` builds. For everyone signed out: `signedOutMint` counts every signed-out
 * mint that goes upstream under one key, `limit.signedOutMints`, since a flood comes from as
 * many addresses as it has, and only a shared count keeps it from the signed-in users' mints.
 * A refusal is `rate_limited` with `Retry-After`. A portal's own store is guarded
 * (`GuardedStore`): a failing or slow store holds a request at most `storeTimeoutMs`, then lets
 * it pass uncounted or, with `passOnStoreError: false`, refuses it.
 */
export function requestLimits(config: LimitSettings): Record<LimitName, RequestHandler> {
  const warnOfClientAddress = proxyWarnings(config.logger);
  const { prefix, store } = config.limit;
  const prefixOf = prefix === undefined ? mountPathPrefix(config.logger) : () => prefix;
  const noteServed =
    store !== undefined && prefix !== undefined
      ? sharedPrefixWatch(store, prefix, config.logger)
      : () => {};
  const counted = { ...config, prefixOf, warnOfClientAddress, noteServed };
  return {
    mint: countedLimit('mint', counted),
    catalogue: countedLimit('catalogue', counted),
    signedOutMint: countedLimit('signedOutMint', counted),
  };
}

type LimitSettings = Pick<FormEmbedSessionsConfig, 'limit' | 'logger' | 'maxRetryAfterSeconds'>;

/** Per store and prefix, in this process: the routers that served under it, and the last one. */
const servingRouters = new WeakMap<
  Store,
  Map<string, { last: object; seen: WeakSet<object>; told: boolean }>
>();

/**
 * Two routers in one process that serve under one store and prefix share every count, with no
 * error from either. A router rebuilt in another's place (a test's fresh app, a hot reload)
 * serves after it and the old one never again; two that both serve take turns. The first turn
 * back to a router that served before is logged, once. Returns what each request calls.
 */
function sharedPrefixWatch(store: Store, prefix: string, logger: Logger): () => void {
  const router = {};
  return () => {
    const byPrefix = servingRouters.get(store) ?? new Map();
    servingRouters.set(store, byPrefix);
    const served = byPrefix.get(prefix);
    if (served === undefined) {
      byPrefix.set(prefix, { last: router, seen: new WeakSet([router]), told: false });
    } else if (served.last !== router) {
      if (served.seen.has(router) && !served.told) {
        served.told = true;
        logger.error(
          `two formEmbedSessions routers in this process count under one limit.store with one limit.prefix ('${prefix}'), so they share every count: give each mount its own prefix, or mount one router at both paths`,
        );
      }
      served.seen.add(router);
      served.last = router;
    }
  };
}

/** The `limit` option that sets each limit's count. */
const OPTION_OF = {
  mint: 'mints',
  catalogue: 'catalogue',
  signedOutMint: 'signedOutMints',
} as const satisfies Record<LimitName, keyof FormEmbedSessionsConfig['limit']>;

function countedLimit(
  name: LimitName,
  {
    limit,
    logger,
    maxRetryAfterSeconds,
    prefixOf,
    warnOfClientAddress,
    noteServed,
  }: LimitSettings & {
    prefixOf: (req: Request) => string;
    warnOfClientAddress: (req: Request) => void;
    noteServed: () => void;
  },
): RequestHandler {
  const option = OPTION_OF[name];
  const max = limit[option];
  const store =
    limit.store === undefined
      ? new BoundedMemoryStore()
      : new GuardedStore(limit.store, {
          windowMs: limit.windowMs,
          timeoutMs: limit.storeTimeoutMs,
          passOnStoreError: limit.passOnStoreError,
          logger,
          limit: name,
          // Every signed-out mint met the address's limit first, which tries the store.
          probes: name !== 'signedOutMint',
        });
  return rateLimit({
    windowMs: limit.windowMs,
    limit: max,
    store,
    passOnStoreError: limit.passOnStoreError,
    legacyHeaders: false,
    standardHeaders: false,
    keyGenerator: (req, res) => {
      noteServed();
      const user = resolvedUserOf(res);
      if (user === undefined && name !== 'signedOutMint') warnOfClientAddress(req);
      return limitKey(req, prefixOf(req), name, user);
    },
    handler: function refuseOverLimit(req: Request, res: Response) {
      const subject =
        name === 'signedOutMint' ? 'signed_out' : resolvedUserOf(res) ? 'user' : 'address';
      recordLimitRefusal(name, subject);
      const whose = {
        user: 'This user',
        address: 'This client address',
        signed_out: 'Signed-out visitors, together,',
      }[subject];
      sendSessionError(
        res,
        sessionError(
          'rate_limited',
          `${whose} reached limit.${option} (${max} per ${limit.windowMs} ms).`,
          // A window longer than the cap is told as the cap, like the service's own waits.
          cappedRetryAfter(secondsToReset(req, limit.windowMs), maxRetryAfterSeconds),
        ).answer,
      );
    },
    logger: {
      warn: (error, message) =>
        logger.warn(message ?? 'rate limiter warning', { error: describe(error) }),
      error: (error, message) => {
        if (error instanceof StoreBypassed) return;
        logger.error(message ?? 'rate limiter error', { error: describe(error) });
      },
    },
  });
}

const answered = Symbol('answered by the limit');

/**
 * Runs a limit inside a handler: true when it let the request through, false when it answered
 * it (`rate_limited`). A store failure the limit does not pass over rejects.
 */
export async function passesLimit(
  limit: RequestHandler,
  req: Request,
  res: Response,
): Promise<boolean> {
  const outcome = await new Promise<unknown>((resolve) => {
    Promise.resolve(limit(req, res, resolve)).then(
      () => resolve(answered),
      (error: unknown) => resolve(error ?? new Error('the limit failed')),
    );
  });
  // A refusal for a browser that has gone writes nothing (sendSessionError).
  if (outcome === answered && !res.headersSent && !isBrowserGone(res))
    throw new Error('the limit neither answered nor passed');
  if (outcome === answered) return false;
  if (outcome !== undefined) throw outcome;
  return true;
}

/** Whole seconds until the window of this request's key resets, at least 1. */
function secondsToReset(req: Request, windowMs: number): number {
  const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit?.resetTime;
  if (resetTime === undefined) return Math.ceil(windowMs / 1000);
  return Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000));
}
