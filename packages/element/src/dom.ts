/**
 * `document.createElement(tag)` with `props`. A string `part` works as a property: the DOM
 * forwards it to `part.value`.
 */
export function make<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Partial<Omit<HTMLElementTagNameMap[K], 'part'>> & { part?: string },
) {
  return Object.assign(document.createElement(tag), props);
}
