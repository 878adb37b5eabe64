// `@form-embed/element/react-jsx`: types `<form-embed>` in React 19's JSX. Import it once, e.g.
// `import '@form-embed/element/react-jsx';` beside `import '@form-embed/element/define';`. Its
// JavaScript is an empty module, so any bundler accepts the import.
import type { DetailedHTMLProps, HTMLAttributes } from 'react';
import type { FormEmbedEventMap } from './events.js';
import type { FormEmbedElement } from './form-embed-element.js';

/** The element's properties that React 19 sets as properties, typed as the element types them. */
type SetAsProperties = Partial<
  Pick<
    FormEmbedElement,
    'endpoint' | 'loading' | 'messages' | 'fetchSession' | 'requestInit' | 'allowedEndpointOrigins'
  >
>;

/** A listener prop for each of the element's events: `on` + the event's name. */
type FormEmbedListeners = {
  [K in keyof FormEmbedEventMap as `on${K}`]?: (event: FormEmbedEventMap[K]) => void;
};

/**
 * What React 19 accepts on `<form-embed>`: its attributes, its properties (React sets a prop as
 * a property when the element has one) and its events (`on` + the event's name).
 */
export interface FormEmbedJsxProps
  extends DetailedHTMLProps<HTMLAttributes<FormEmbedElement>, FormEmbedElement>,
    SetAsProperties,
    FormEmbedListeners {
  /** The designer form to frame. Set exactly one of `form-id` and `core-slug`. */
  'form-id'?: string;
  /** The Core form to frame. Set exactly one of `form-id` and `core-slug`. */
  'core-slug'?: string;
  /** The iframe's accessible name. Defaults to the `frame` message (`Embedded form`). */
  'frame-title'?: string;
}

// As `/define` does, for a page that imports only this entry and `/react`.
declare global {
  interface HTMLElementTagNameMap {
    'form-embed': FormEmbedElement;
  }
}

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'form-embed': FormEmbedJsxProps;
    }
  }
}
