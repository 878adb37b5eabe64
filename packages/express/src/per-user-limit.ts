import type { Request, RequestHandler, Response } from 'express';
import { ipKeyGenerator, MemoryStore, rateLimit } from 'express-rate-limit';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { resolvedUserOf } from './resolve-user.js';
import { sendSessionError } from './session-error-response.js';

/**
 * The per-user mint limit, kept by express-rate-limit: one portal user may start
 * `limit.mints` mints per `limit.windowMs`, so nobody alone can spend the organisation's
 * 120 mints a minute. Keyed by the user `resolveUser` returned (by IP address when nobody is
 * signed in); a refusal is `rate_limited` with `Retry-After`.
 */
export function perUserLimit(
  limit: FormEmbedSessionsConfig['limit'],
  logger: Logger,
): RequestHandler {
  return rateLimit({
    windowMs: limit.windowMs,
    limit: limit.mints,
    store: limit.store ?? new MemoryStore(),
    legacyHeaders: false,
    standardHeaders: false,
    keyGenerator: userKey,
    handler: (req, res) => {
      const resetTime = (req as Request & { rateLimit?: { resetTime?: Date } }).rateLimit
        ?.resetTime;
      const seconds =
        resetTime === undefined
          ? Math.ceil(limit.windowMs / 1000)
          : Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000));
      sendSessionError(res, {
        code: 'rate_limited',
        message: `This user reached the mint limit (${limit.mints} per ${limit.windowMs} ms).`,
        retryable: true,
        status: 429,
        retryAfter: String(seconds),
      });
    },
    logger: {
      warn: (error, message) => logger.warn(message ?? 'rate limiter warning', { error }),
      error: (error, message) => logger.error(message ?? 'rate limiter error', { error }),
    },
    validate: { xForwardedForHeader: false },
  });
}

function userKey(req: Request, res: Response): string {
  const user = resolvedUserOf(res);
  if (user === undefined) return `ip:${ipKeyGenerator(req.ip ?? '')}`;
  return `user:${JSON.stringify([user.clientId ?? '', user.microsoftTenantId ?? '', user.userIdentifier ?? ''])}`;
}
