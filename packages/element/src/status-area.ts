import { make } from './dom.js';
import type { MessageOverrides } from './messages.js';

/**
 * The element's status area (part `status`): a live region, polite as `role=status` is by
 * default, made once so that it is a live region before it speaks. It holds one message, in a
 * slot that a page may fill instead, and at most one button, and writes both as text, never as
 * HTML. It can also hold focus (see `hold`), for the element to hand on once the frame or the
 * next button is there.
 */
export class StatusArea {
  #root: HTMLElement;
  #button: HTMLButtonElement;
  /** The slot's name, the message's key and the key of the button's label. */
  #says: [slot: string, text?: string, button?: string] = [''];
  /** What the area shows, so that painting it unchanged leaves its nodes, and their focus, alone. */
  #shown = '';
  /** Focus is here because `hold` put it here, not because someone clicked the area. */
  #held?: boolean;

  constructor(parent: Node, onButton: () => void) {
    this.#root = parent.appendChild(make('div', { role: 'status', part: 'status', tabIndex: -1 }));
    this.#button = make('button', { onclick: onButton });
  }

  /**
   * Takes focus from what is about to go (the button, the frame): focus left on a removed node
   * falls to the page's body, where the element could no longer tell it from a click elsewhere.
   */
  hold() {
    this.#held = true;
    this.#root.focus();
  }

  /**
   * If the area still holds the focus `hold` gave it (nothing on the page has taken it since),
   * gives it to the button shown (Try again, or the lapse notice's Dismiss, so that the notice
   * is read before the form takes focus), else to `target`, else keeps it on its message.
   */
  handOver(target?: HTMLElement) {
    // activeElement, not :focus, which Chromium matches only while the page itself has focus.
    if (this.#held && (this.#root.parentNode as ShadowRoot).activeElement === this.#root) {
      (this.#button.isConnected ? this.#button : target)?.focus();
    }
    this.#held = false;
  }

  /** Says message `text` in slot `slot`, with a button (part and label) `button`; no text, nothing. */
  say(...says: [slot: string, text?: string, button?: string]) {
    this.#says = says;
  }

  /**
   * Writes what it says in `messages`; an empty message says nothing. A page's content in the
   * slot replaces the message only: the button, which does the work, stays.
   */
  paint(messages: MessageOverrides) {
    const [name, text = '', button = ''] = this.#says;
    const said = messages[text] ?? '';
    const label = messages[button] ?? '';
    const shown = [name, said, button, label].join('\n');
    if (shown === this.#shown) return;
    this.#shown = shown;
    this.#button.textContent = label;
    this.#button.part.value = button;
    const slot = make('slot', { name });
    slot.append(said);
    this.#root.replaceChildren(...(said ? [slot, ...(button ? [this.#button] : [])] : []));
  }
}
