import { make } from './dom.js';
import type { MessageOverrides } from './messages.js';

/**
 * The element's status area (part `status`): a polite live region, made once so that it is a
 * live region before it speaks. It holds one message, in a slot that a page may fill instead,
 * and at most one button, and writes both as text, never as HTML.
 */
export class StatusArea {
  #root: HTMLElement;
  #button: HTMLButtonElement;
  /** The slot's name, the message's key and the key of the button's label. */
  #says: [slot: string, text?: string, button?: string] = [''];
  /** What the area shows, so that painting it unchanged leaves its nodes, and their focus, alone. */
  #shown = '';

  constructor(parent: Node, onButton: () => void) {
    this.#root = parent.appendChild(
      make('div', { role: 'status', ariaLive: 'polite', part: 'status' }),
    );
    this.#button = make('button', { onclick: onButton });
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
