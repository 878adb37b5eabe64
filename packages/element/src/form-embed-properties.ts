import { ReactiveElement } from '@lit/reactive-element';
import { type MessageOverrides, messages } from './messages.js';
import { styles } from './styles.js';
import type { FetchSession } from './types.js';

/**
 * `<form-embed>` as a page configures it: its properties (attributes where they have one), its
 * styles (in whichever document it is moved to), the messages of every element, and how it
 * registers. `FormEmbedElement` adds what the element does with them.
 */
export class FormEmbedProperties extends ReactiveElement {
  static override properties = {
    formId: { attribute: 'form-id' },
    coreSlug: { attribute: 'core-slug' },
    endpoint: {},
    loading: {},
    frameTitle: { attribute: 'frame-title' },
    messages: { attribute: false },
    // Properties on the prototype, so that React 19 and @lit/react set them, not attributes.
    fetchSession: { attribute: false },
    requestInit: { attribute: false },
    allowedEndpointOrigins: { attribute: false },
  };

  /**
   * The messages of every element, where its own `messages` has no key: wholly (a locale pack)
   * or per key, English where it has none. Defaults to English.
   */
  static messages: Readonly<MessageOverrides> = messages;

  /**
   * Registers the element as `tag` unless that tag is taken. Defaults to `form-embed`. Returns
   * the class it was called on.
   */
  static define<T extends typeof FormEmbedProperties>(this: T, tag = 'form-embed'): T {
    // biome-ignore lint/complexity/noThisInStatic: a subclass registers itself, not this class.
    if (!customElements.get(tag)) customElements.define(tag, this);
    // biome-ignore lint/complexity/noThisInStatic: as above.
    return this;
  }

  // Declared only: a class field would shadow the accessor Lit puts on the prototype wherever the
  // source is compiled with standard class fields (a bundler resolving the `@form-embed/source` condition).
  /** The designer form to frame (`form-id`). */
  declare formId?: string;
  /** The Core form to frame (`core-slug`). */
  declare coreSlug?: string;
  /**
   * The path where the portal mounts the middleware (`/` for the origin's root). Unset or empty (the
   * attribute removed or blank, or undefined or null, as a React prop left out sets it):
   * `/form-sessions`.
   * @default '/form-sessions'
   */
  declare endpoint?: string | null;
  /** `eager` mints on connect; `lazy` mints when the element nears the viewport. Defaults to `eager`. */
  declare loading: 'eager' | 'lazy';
  /** The iframe's accessible name (`frame-title`). Defaults to the `frame` message. */
  declare frameTitle?: string;
  /**
   * This element's messages, wholly or per key, over `FormEmbedElement.messages`. Defaults to
   * none: every key from `FormEmbedElement.messages`.
   */
  declare messages?: MessageOverrides;
  /**
   * Replaces the transport to the middleware, like Stripe's `fetchClientSecret`. Defaults to
   * the built-in one: `POST {endpoint}/forms/:formId/session` (or `/core-forms/:slug/session`).
   */
  declare fetchSession?: FetchSession;
  /**
   * Merged into the default transport's request, e.g. `{headers: {'X-CSRF-Token': token}}`.
   * Defaults to none.
   */
  declare requestInit?: RequestInit;
  /** Origins besides the page's own that `endpoint` may be on. Defaults to none: others are refused. */
  declare allowedEndpointOrigins?: readonly string[];

  /**
   * Moved with moveBefore (a framework's reorder, a morph), the element keeps its frame, and what
   * the person typed in it: the browser calls this instead of disconnecting and connecting it.
   * @ignore
   */
  connectedMoveCallback() {}

  /**
   * Adopts the styles as a sheet made in the element's own window, when its shadow root is made
   * and each time it is moved into another document (a Picture-in-Picture window, and back): a
   * shadow root may adopt only sheets made in its document's window, and drops the others on a
   * move. A constructed sheet needs no style-src 'unsafe-inline', in either window. A document with
   * no window (a template's content, a closed window's) has none to make: none is needed there.
   * @ignore
   */
  adoptedCallback() {
    const view = this.ownerDocument.defaultView;
    if (view) {
      const sheet = new view.CSSStyleSheet();
      sheet.replaceSync(styles);
      this.shadowRoot?.adoptedStyleSheets.push(sheet);
    }
  }

  constructor() {
    super();
    this.loading = 'eager';
  }
}
