export type {
  Catalogue,
  CatalogueEntry,
  EmbedOrigins,
  FormSessionUser,
  FormTarget,
} from '@form-embed/protocol';
export { type FormEmbedSessionsRouter, formEmbedSessions } from './form-embed-sessions.js';
export type { Logger } from './logger.js';
export type {
  CatalogueOptions,
  FormEmbedSessionsOptions,
  InMemoryLimits,
  LimitCounts,
  LimitOptions,
  ResolvedUser,
  SharedLimits,
  UpstreamPaths,
} from './options.js';
