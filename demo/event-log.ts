// Shows what a `<form-embed>` does: its state badge and a log of its events, for QA.
export const eventTypes = [
  'form-embed-session',
  'form-embed-remint',
  'form-embed-error',
  'form-embed-notice',
] as const;

/**
 * The form `element` embeds, as the console's Embed box takes it: a form id, or `core:` and a
 * Core slug.
 */
const formOf = (element: Element) =>
  element.getAttribute('form-id') ?? `core:${element.getAttribute('core-slug') ?? ''}`;

/**
 * Appends every form-embed event `element` fires to `list`, newest first, each tagged with the
 * element's form: on the console, one log holds the events of every form embedded in turn.
 */
export function logEvents(element: Element, list: HTMLOListElement): void {
  for (const type of eventTypes) {
    element.addEventListener(type, (event) => {
      const item = document.createElement('li');
      item.dataset.kind = type;
      const time = document.createElement('time');
      time.textContent = new Date().toLocaleTimeString();
      const form = Object.assign(document.createElement('span'), { className: 'form' });
      form.textContent = formOf(element);
      const name = document.createElement('b');
      name.textContent = type;
      const detail = document.createElement('div');
      const { isTrusted: _, ...fields } = { ...event };
      detail.textContent = JSON.stringify(fields);
      item.append(time, form, name, detail);
      list.prepend(item);
    });
  }
}

/** Keeps `badge` showing the element's reflected `state` attribute. */
export function showState(
  element: Element,
  badge: HTMLElement,
  onChange?: (state: string) => void,
): MutationObserver {
  const render = () => {
    const state = element.getAttribute('state') ?? 'idle';
    badge.textContent = state;
    badge.dataset.state = state;
    onChange?.(state);
  };
  render();
  const observer = new MutationObserver(render);
  observer.observe(element, { attributes: true, attributeFilter: ['state'] });
  return observer;
}
