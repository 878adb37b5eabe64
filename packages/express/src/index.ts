export type { EmbedOriginPair } from './embed-origins.js';
export { type FormEmbedSessionsRouter, formEmbedSessions } from './form-embed-sessions.js';
export type { Logger } from './logger.js';
export type {
  CatalogueOptions,
  FormEmbedSessionsOptions,
  LimitOptions,
  ResolvedUser,
  UpstreamPaths,
} from './options.js';
