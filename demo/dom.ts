/** The element with `id`; a demo page without it is a bug, so say which id is missing. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`the demo page has no #${id}`);
  return element as T;
}

/** The first match of `selector` in `root`, or an error naming the selector. */
export function query<T extends Element = HTMLElement>(root: ParentNode, selector: string): T {
  const element = root.querySelector<T>(selector);
  if (!element) throw new Error(`the demo page has no ${selector}`);
  return element;
}
