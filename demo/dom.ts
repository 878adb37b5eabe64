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

/**
 * Marks `input` invalid, with `problem` shown in `message` and read with the input (before its
 * `hint`, if any), or valid again when `problem` is empty.
 */
export function sayInvalid(
  input: HTMLInputElement,
  message: HTMLElement,
  problem: string,
  hint?: string,
) {
  input.setCustomValidity(problem);
  message.textContent = problem;
  message.hidden = !problem;
  if (problem) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
  const describedBy = [problem && message.id, hint].filter(Boolean).join(' ');
  if (describedBy) input.setAttribute('aria-describedby', describedBy);
  else input.removeAttribute('aria-describedby');
}
