export {
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
  FormEmbedRemintEvent,
  FormEmbedSessionEvent,
} from './events.js';
export {
  type FetchSession,
  FormEmbedElement,
  type FormEmbedState,
} from './form-embed-element.js';
export { failureMessage, failureMessages, messages } from './messages.js';
