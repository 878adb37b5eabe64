import { FormEmbedElement } from './form-embed-element.js';

// Guarded so that importing this module on a server without a registry does not throw.
if (typeof customElements !== 'undefined') FormEmbedElement.define();

declare global {
  interface HTMLElementTagNameMap {
    'form-embed': FormEmbedElement;
  }
}

// Named here too, so that a page importing only this module has the events typed.
export type {
  FormEmbedErrorEvent,
  FormEmbedNoticeEvent,
  FormEmbedRemintEvent,
  FormEmbedSessionEvent,
} from './events.js';
export { FormEmbedElement };
