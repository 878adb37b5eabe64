export {
  type Catalogue,
  type CatalogueEntry,
  FormSessionError,
  type FormTarget,
  type KnownSessionErrorCode,
  type MintResponse,
  type PortalErrorCode,
  type Provider,
  type SessionErrorCode,
} from '@form-embed/protocol/browser';
export type {
  FormEmbedErrorEvent,
  FormEmbedEventMap,
  FormEmbedNoticeEvent,
  FormEmbedRemintEvent,
  FormEmbedSessionEvent,
} from './events.js';
export { FormEmbedElement } from './form-embed-element.js';
export {
  type MessageKey,
  type MessageOverrides,
  type Messages,
  messages,
} from './messages.js';
export { UNTRUSTED_ORIGIN } from './origins.js';
export type { FetchSession, FormEmbedState } from './types.js';
