// The demo's Burn: the element's frame navigated to its embedUrl again redeems the single-use
// handle a second time, so the framed page posts `error` and the element remints.
import type { FormEmbedElement } from '@form-embed/element';

/** Reloads `element`'s frame; false when it has none. */
export function burnHandle(element: FormEmbedElement | null): boolean {
  const frame = element?.shadowRoot?.querySelector('iframe');
  if (frame) frame.setAttribute('src', frame.src);
  return Boolean(frame);
}
