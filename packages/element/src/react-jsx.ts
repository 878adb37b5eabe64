// `@form-embed/element/react-jsx`: types `<form-embed>` in React 19's JSX. Import it once, e.g.
// `import '@form-embed/element/react-jsx';` beside `import '@form-embed/element/define';`. Its
// JavaScript is an empty module, so any bundler accepts the import.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { FormEmbedErrorEvent, FormEmbedRemintEvent, FormEmbedSessionEvent } from './events.js';
import type { FetchSession, FormEmbedElement } from './form-embed-element.js';

/**
 * What React 19 accepts on `<form-embed>`: its attributes, its properties (React sets a prop as
 * a property when the element has one) and its events (`on` + the event's name).
 */
export interface FormEmbedJsxProps
  extends DetailedHTMLProps<HTMLAttributes<FormEmbedElement>, FormEmbedElement> {
  /** The designer form to frame. Set exactly one of `form-id` and `core-slug`. */
  'form-id'?: string;
  /** The Core form to frame. Set exactly one of `form-id` and `core-slug`. */
  'core-slug'?: string;
  /** The path where the portal mounts the middleware. Defaults to `/form-sessions`. */
  endpoint?: string;
  /** `eager` mints on connect; `lazy` when the element nears the viewport. Defaults to `eager`. */
  loading?: 'eager' | 'lazy';
  /** The iframe's accessible name. Defaults to `Embedded form`. */
  'frame-title'?: string;
  fetchSession?: FetchSession;
  requestInit?: RequestInit;
  'onform-embed-session'?: (event: FormEmbedSessionEvent) => void;
  'onform-embed-remint'?: (event: FormEmbedRemintEvent) => void;
  'onform-embed-error'?: (event: FormEmbedErrorEvent) => void;
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'form-embed': FormEmbedJsxProps;
    }
  }
}
