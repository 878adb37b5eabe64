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
