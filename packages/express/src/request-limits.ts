import type { Request, RequestHandler, Response } from 'express';
import { rateLimit, type Store } from 'express-rate-limit';
import { BoundedMemoryStore } from './bounded-memory-store.js';
import { GuardedStore, StoreBypassed } from './guarded-store.js';
import { type LimitName, limitKey, mountPathPrefix } from './limit-key.js';
import { describe } from './logger.js';
import { recordLimitRefusal } from './metrics.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { proxyWarnings } from './proxy-warnings.js';
import { resolvedUserOf } from './resolve-user.js';
import { sendSessionError, sessionError } from './session-error-response.js';

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
  if (store !== undefined && prefix !== undefined) claimPrefix(store, prefix);
  const prefixOf = prefix === undefined ? mountPathPrefix(config.logger) : () => prefix;
  const counted = { ...config, prefixOf, warnOfClientAddress };
  return {
    mint: countedLimit('mint', config.limit.mints, counted),
    catalogue: countedLimit('catalogue', config.limit.catalogue, counted),
    signedOutMint: countedLimit('signedOutMint', config.limit.signedOutMints, counted),
  };
}

type LimitSettings = Pick<FormEmbedSessionsConfig, 'limit' | 'logger' | 'maxRetryAfterSeconds'>;

/** The prefixes each store counts under in this process, one per `formEmbedSessions`. */
const claimedPrefixes = new WeakMap<Store, Set<string>>();

/**
 * Two routers given one store and one prefix would share every count, silently: refused when
 * the second is made. (Across processes a prefix is shared on purpose: one portal's instances.)
 */
function claimPrefix(store: Store, prefix: string): void {
  const claimed = claimedPrefixes.get(store) ?? new Set<string>();
  if (claimed.has(prefix)) {
    throw new TypeError(
      `formEmbedSessions: option \`limit.prefix\` ('${prefix}') is already used by another formEmbedSessions on the same \`limit.store\`: give each mount its own, or mount one router at both paths`,
    );
  }
  claimedPrefixes.set(store, claimed.add(prefix));
}

function countedLimit(
  name: LimitName,
  max: number,
  {
    limit,
    logger,
    maxRetryAfterSeconds,
    prefixOf,
    warnOfClientAddress,
  }: LimitSettings & {
    prefixOf: (req: Request) => string;
    warnOfClientAddress: (req: Request) => void;
  },
): RequestHandler {
  const store =
    limit.store === undefined
      ? new BoundedMemoryStore()
      : new GuardedStore(limit.store, {
          windowMs: limit.windowMs,
          timeoutMs: limit.storeTimeoutMs,
          passOnStoreError: limit.passOnStoreError,
          logger,
        });
  return rateLimit({
    windowMs: limit.windowMs,
    limit: max,
    store,
    passOnStoreError: limit.passOnStoreError,
    legacyHeaders: false,
    standardHeaders: false,
    keyGenerator: (req, res) => {
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
          `${whose} reached the ${name} limit (${max} per ${limit.windowMs} ms).`,
          // A window longer than the cap is told as the cap, like the service's own waits.
          String(Math.min(secondsToReset(req, limit.windowMs), maxRetryAfterSeconds)),
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
  if (outcome === answered && !res.headersSent)
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
