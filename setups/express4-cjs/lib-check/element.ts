// The element's CommonJS types (its .d.cts files), required from a CommonJS file, as a server
// that renders the portal's pages would: its entries resolved through `require`, with the members
// Lit's ReactiveElement gives the class. (Its React entries import only React's types, which are
// CommonJS; checking @types/react too would cost the setup 2 s more.)
import { type FormEmbedElement, messages } from '@form-embed/element';
import type { FormEmbedSessionEvent } from '@form-embed/element/define';

import de = require('@form-embed/element/locales/de');

export const updated: (element: FormEmbedElement) => Promise<boolean> = (element) =>
  element.updateComplete;
export const frameTitles: string[] = [messages.frame, de.default.frame];
export type EmbedOrigin = FormEmbedSessionEvent['embedOrigin'];
