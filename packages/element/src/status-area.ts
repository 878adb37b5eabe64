import { make } from './dom.js';
import type { MessageOverrides } from './messages.js';

/**
 * The element's status area (part `status`): a polite live region, made once so that it is a
 * live region before it speaks. It holds one message and at most one button, inside a slot that
 * a page may fill instead, and writes both as text, never as HTML.
 */
export class StatusArea {
  #root: HTMLElement;
  #button: HTMLButtonElement;
  /** The slot's name, the message's key and the key of the button's label. */
  #says: [slot: string, text?: string, button?: string] = [''];

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

  /** Writes what it says in `messages`. An empty message says nothing. */
  paint(messages: MessageOverrides) {
    const [name, text = '', button = ''] = this.#says;
    const slot = make('slot', { name });
    this.#button.textContent = messages[button] ?? '';
    this.#button.part.value = button;
    slot.append(messages[text] ?? '', ...(button ? [this.#button] : []));
    this.#root.replaceChildren(...(messages[text] ? [slot] : []));
  }
}
