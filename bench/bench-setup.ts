/** What every measurement shares: the form, the portal user and the raised limits. */
import type { FormSessionUser } from '@form-embed/protocol';

/** A designer form that mints for any portal user (provider `portal`, with a handle). */
export const FORM_ID = 'form_open';
export const BENCH_USER: FormSessionUser = { userIdentifier: 'bench@portal.example' };

/** Where the bench portal mounts `formEmbedSessions` (the element's default endpoint). */
export const MOUNT_PATH = '/form-sessions';
export const PORTAL_MINT_PATH = `${MOUNT_PATH}/forms/${FORM_ID}/session`;
/** The bench portal's `process.cpuUsage()`, as JSON. */
export const CPU_PATH = '/bench/cpu';

/** A second mount of `formEmbedSessions`, the same but with its limits in Redis. */
export const REDIS_MOUNT_PATH = '/form-sessions-redis';
export const PORTAL_REDIS_MINT_PATH = `${REDIS_MOUNT_PATH}/forms/${FORM_ID}/session`;
export const SANDBOX_MINT_PATH = `/api/v1/forms/${FORM_ID}/session`;

/**
 * Mounts for the catalogue figures: the default one (cache on) and one with
 * `catalogue.cacheTtlMs: 0`, which reads upstream on every request.
 */
export const NO_CATALOGUE_CACHE_MOUNT_PATH = '/form-sessions-no-cache';
export const CATALOGUE_MOUNT_PATHS = {
  warm: MOUNT_PATH,
  cold: NO_CATALOGUE_CACHE_MOUNT_PATH,
} as const;

/** The sandbox's per-key limits (mints and reads) and the middleware's per-user limit, raised. */
export const RAISED_SANDBOX_LIMIT = { perMinute: 1_000_000_000, burst: 1_000_000_000 };
export const RAISED_USER_LIMIT = {
  mints: 1_000_000_000,
  catalogue: 1_000_000_000,
  windowMs: 60_000,
};

export interface SandboxInfo {
  baseUrl: string;
  formsOrigin: string;
  apiKey: string;
}

export interface PortalInfo {
  /** `http://127.0.0.1:<port>`, for load from Node. */
  url: string;
  /** `http://localhost:<port>`, for the browser: another site than the sandbox's 127.0.0.1. */
  browserUrl: string;
}
