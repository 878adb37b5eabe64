// What the QA console keeps in its address, which it reads as it opens, so that a reload (after a
// Sign out, say) opens it as the tester left it: the language (?lang=) and the form chosen,
// ?form= one picked in the list or ?embed= one typed in the Embed box, either as the box takes it.
// The other demo pages read the language too, and their links bring the query back.

const asked = new URLSearchParams(location.search);

/** The value of `name` in the address the console opened with, or null. */
export const askedFor = (name: string) => asked.get(name);

/**
 * Writes `choices` into the address (undefined deletes one). No history entry: Back still leaves
 * the console.
 */
export function keepInAddress(choices: Record<string, string | undefined>): void {
  const address = new URL(location.href);
  for (const [name, value] of Object.entries(choices)) {
    if (value === undefined) address.searchParams.delete(name);
    else address.searchParams.set(name, value);
  }
  history.replaceState(history.state, '', address);
  keepInLinks();
}

/**
 * The links between the demo pages carry the address's query, which the pages read (`?lang=`)
 * and hand back to the console: a tester who goes there and back finds the language and form kept.
 */
export function keepInLinks(): void {
  for (const link of document.querySelectorAll<HTMLAnchorElement>(
    'nav[aria-label="Demo pages"] a',
  )) {
    link.search = location.search;
  }
}

/** A form as the Embed box takes it (a form id, or core: and a Core slug), as the list's choice. */
export const choiceOf = (typed: string) => (typed.startsWith('core:') ? typed : `form:${typed}`);

/** A choice of the list as the Embed box takes it. */
export const typedOf = (choice: string) => choice.replace(/^form:/, '');
