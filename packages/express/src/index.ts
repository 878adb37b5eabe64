export { formEmbedSessions } from './form-embed-sessions.js';
export type { Logger } from './logger.js';
export {
  defaultMintLimit,
  defaultTimeoutMs,
  type FormEmbedSessionsOptions,
  type MintLimitOptions,
  parseOptions,
  type ResolvedUser,
} from './options.js';
