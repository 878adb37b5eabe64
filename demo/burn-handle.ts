// The demo's Burn: the element's frame navigated to its embedUrl again redeems the single-use
// handle a second time, so the framed page posts `error` and the element remints. A session with
// no handle (provider none, `expiresIn` 0) has nothing to burn: its frame opens the form again.
import type { FormEmbedElement } from '@form-embed/element';

/** Each element's last session: seconds its handle was redeemable for at mint, 0 for none. */
const handleSeconds = new WeakMap<EventTarget, number>();
document.addEventListener('form-embed-session', (event) => {
  if (event.target) handleSeconds.set(event.target, event.expiresIn);
});

/** Whether `element`'s framed session came with a handle to burn (unknown before one is framed). */
const hasHandle = (element: EventTarget) => handleSeconds.get(element) !== 0;

/** What reloading the frame did. */
export type Burnt = 'burnt' | 'no handle' | 'no frame';

/** Reloads `element`'s frame. */
export function burnHandle(element: FormEmbedElement | null): Burnt {
  const frame = element?.shadowRoot?.querySelector('iframe');
  if (!element || !frame) return 'no frame';
  frame.setAttribute('src', frame.src);
  return hasHandle(element) ? 'burnt' : 'no handle';
}
