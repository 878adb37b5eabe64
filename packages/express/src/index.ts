export { formEmbedSessions } from './form-embed-sessions.js';
export type { Logger } from './logger.js';
export {
  type CatalogueOptions,
  defaultCatalogueCacheTtlMs,
  defaultMaxRetryAfterSeconds,
  defaultMaxUpstreamBodyBytes,
  defaultMintLimit,
  defaultTimeoutMs,
  type FormEmbedSessionsOptions,
  type MintLimitOptions,
  type ResolvedUser,
} from './options.js';
export { parseOptions } from './parse-options.js';
