import { make } from './dom.js';
import { FormEmbedProperties } from './form-embed-properties.js';
import { failureKey, type MessageOverrides } from './messages.js';
import type { FormEmbedState } from './types.js';

/**
 * `<form-embed>`'s state and the status area that tells it (part `status`): a live region, polite
 * as `role=status` is by default, made once so that it is a live region before it speaks. It
 * holds one message, in a slot that a page may fill instead, and at most one button, both
 * written as text, never as HTML. `FormEmbedElement` adds the runs that move the state.
 */
// The `_…` members are shared with `FormEmbedElement` alone, as Lit shares its own: tagged
// internal, so the published types leave them out, and the no-bundler build shortens their names
// as it does `#private` ones (SHARED_MEMBERS in scripts/no-bundler-file.ts). The lifecycle
// callbacks a subclass may extend are tagged ignore instead: out of the manifest, in the types.
export abstract class FormEmbedStatus extends FormEmbedProperties {
  #state: FormEmbedState = 'idle';
  #area!: HTMLElement;
  #button!: HTMLButtonElement;
  /**
   * The key of the message (or the failure's code, read as failureKey reads it) and of the
   * button's label (also its part) the area says.
   */
  #says: [text?: string, button?: string] = [];
  /** What the area shows: painting it unchanged leaves its nodes, and their focus, alone. */
  #shown?: string;
  /**
   * The wait of this connection before the area may speak; none (0, fewer bytes than undefined)
   * once it was rendered empty.
   */
  #opening?: (() => void) | 0;

  /** Where the element is in its lifecycle. */
  get state(): FormEmbedState {
    return this.#state;
  }

  override connectedCallback() {
    super.connectedCallback();
    // Each connection updates: FormEmbedElement starts its run there, after the properties set in
    // the same task as the connection (by a framework, or by the page's script once `define`
    // upgraded the tag), so that they are in its mint.
    this.requestUpdate();
    // A live region tells its changes only: a message there in the first frame the area is
    // rendered in (the first update comes in the task of connecting) would go unsaid. So the
    // area is written from the frame after that one, in the element's own window: one it was
    // moved into (a Picture-in-Picture window) renders frames while the page's tab, hidden, does
    // not. Each connection waits with a callback of its own, which alone may open the area, so a
    // reconnect within two frames waits two frames of its own.
    // None in a document with no window (one made by createHTMLDocument): nothing renders there.
    const view = this.ownerDocument.defaultView;
    const opening = () => {
      if (this.#opening === opening) {
        this.#opening = 0;
        this._paintStatus();
      }
    };
    this.#opening = opening;
    view?.requestAnimationFrame(() => view.requestAnimationFrame(opening));
  }

  // An iframe and a status line need no template engine: no lit-html keeps the bundle in budget.
  protected override createRenderRoot() {
    const root = super.createRenderRoot();
    this.adoptedCallback();
    this.#area = root.appendChild(
      make('div', {
        role: 'status',
        part: 'status',
        // Focusable only while it holds the focus _holdFocus gave it (see there): so it never
        // holds focus but from a hold, and a dialog opened later does not focus it.
        onblur() {
          (this as HTMLElement).removeAttribute('tabindex');
        },
      }),
    );
    this.#button = make('button', {
      onclick: () => {
        if (this.#state === 'failed') this._retryPressed();
        else {
          // Dismiss hands focus to the form.
          this._setStatus('framed');
          this.renderRoot.querySelector('iframe')?.focus();
        }
      },
    });
    return root;
  }

  /** Try again, pressed. @internal */
  protected abstract _retryPressed(): void;

  /** The messages of the moment. @internal */
  protected abstract _currentMessages(): MessageOverrides;

  /**
   * Enters `state`; the status area says message `text` (a failure's code: the key it reads as),
   * with button (label and part) `button`.
   * @internal
   */
  protected _setStatus(state: FormEmbedState, text?: string, button?: string) {
    this.#state = state;
    this.setAttribute('state', state);
    this.#says = [text, button];
    this._paintStatus();
  }

  /**
   * Writes the status and the frame's title in the current messages; an empty message says
   * nothing. A page's content in the slot replaces the message only: the button stays.
   * @internal
   */
  protected _paintStatus() {
    const all = this._currentMessages();
    const name =
      this.#state === 'failed' ? 'error' : this.#state === 'framed' ? 'notice' : 'loading';
    // A failure says the code, read here as the messages of the moment word it (a page that
    // changes them while it shows may word that code apart, or no longer). Unset before a first
    // message, and for a state that says none: `all[undefined]` reads the key 'undefined', which
    // no messages object has, and the button, then not shown, is left alone. A missing message
    // or label is undefined, not '': an array as a string (its join()) and textContent (null for
    // it) read it as empty.
    const [text, button] = this.#says as [string, string];
    const said = all[text && failureKey(text, all)];
    const label = all[button];
    // biome-ignore lint/style/useTemplate: 3 B gzip fewer than join() or a template (kept as one).
    const shown = [name, said, button, label] + '';
    if (!this.#opening && shown !== this.#shown) {
      // A local the minifier shortens, where it keeps each this.#button as written.
      const control = this.#button;
      this.#shown = shown;
      control.textContent = label as string;
      control.part = button;
      // The button is described by its message (the slot, whose id is its name): focus handed to
      // the button as the message appears can cut the live region short, and a screen reader says
      // a focused button's description with it.
      control.setAttribute('aria-describedby', name);
      // The message is replaced (its slot is the area's first child), the button only taken out
      // or put in: a button that stays, relabelled, is never taken out, which would drop focus it
      // has to the page's body (new messages while Try again or Dismiss has focus).
      this.#area.firstChild?.remove();
      if (!said || !button) control.remove();
      else if (!control.isConnected) this.#area.append(control);
      // The message, a <bdi>, in its own text's direction: English on an Arabic page keeps its
      // full stop at the end. On the slot, dir="auto" would also turn the page's own content in
      // it (its direction inherited from the slot) left to right after a Latin first word.
      if (said) {
        this.#area.prepend(make('slot', { name, id: name }));
        (this.#area.firstChild as Element).append(make('bdi', { textContent: said }));
      }
    }
    const frame = this.renderRoot.querySelector('iframe');
    if (frame) frame.title = this.frameTitle || all.frame || '';
  }

  /**
   * Takes focus from what is about to go (the button, the frame): focus left on a removed node
   * falls to the page's body, where the element could no longer tell it from a click elsewhere.
   * @internal
   */
  protected _holdFocus() {
    // Focusable until focus leaves it (its blur): a modal dialog focuses the first focusable node
    // in it, and an area focusable for good took that focus (an empty live region) from the page's
    // own controls, from the start or after a first hold.
    this.#area.tabIndex = -1;
    this.#area.focus();
  }

  /**
   * If the status area still holds the focus `_holdFocus` gave it (nothing on the page has taken it
   * since: only a hold makes it focusable), gives it to the button shown (Try again, or the lapse notice's Dismiss, so that the
   * notice is read before the form takes focus), else to `target`, else keeps it on the message.
   * @internal
   */
  protected _handFocusOver(target?: HTMLElement) {
    // activeElement, not :focus, which Chromium matches only while the page itself has focus.
    if ((this.renderRoot as ShadowRoot).activeElement === this.#area) {
      (this.#button.isConnected ? this.#button : target)?.focus();
    }
  }
}
