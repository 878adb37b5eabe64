// Shows what a `<form-embed>` does: its state badge and a log of its events, for QA.
const eventTypes = [
  'form-embed-session',
  'form-embed-remint',
  'form-embed-error',
  'form-embed-notice',
] as const;

/** Appends every form-embed event reaching `target` to `list`, newest first. */
export function logEvents(target: EventTarget, list: HTMLOListElement, label = ''): void {
  for (const type of eventTypes) {
    target.addEventListener(type, (event) => {
      const item = document.createElement('li');
      item.dataset.kind = type;
      const time = document.createElement('time');
      time.textContent = new Date().toLocaleTimeString();
      const name = document.createElement('b');
      name.textContent = `${label}${type}`;
      const detail = document.createElement('div');
      const { isTrusted: _, ...fields } = { ...event };
      detail.textContent = JSON.stringify(fields);
      item.append(time, name, detail);
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
