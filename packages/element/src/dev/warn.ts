// How every development warning is told: once per element and message.

const warned = new WeakMap<object, Set<string>>();

/** Warns once per element and message, naming the element as its opening tag shows it. */
export function warn(element: Element, message: string) {
  const seen = warned.get(element) ?? new Set();
  warned.set(element, seen);
  if (seen.has(message)) return;
  seen.add(message);
  const html = element.outerHTML;
  console.warn(`${html.slice(0, html.indexOf('>') + 1)}: ${message}`, element);
}
