// The console's glance bar (index.html). When its columns stack, on a phone, the form and the event
// log are far below the controls: the bar keeps the element's state and its last event in sight
// (console.css makes it sticky while it is no taller than a quarter of the screen, and shows it
// only then), with links to the form, the controls and
// the log. Not a live region: it shows the eye what the stage shows, and is not read out again.
import { byId } from './dom.js';
import { eventTypes } from './event-log.js';

/** What matters of each event, in a word or two. */
const gists: Record<(typeof eventTypes)[number], (event: Record<string, unknown>) => unknown> = {
  'form-embed-session': (event) => `attempt ${event.attempt}`,
  'form-embed-remint': (event) => event.reason,
  'form-embed-error': (event) => event.code,
  'form-embed-notice': (event) => event.reason,
};

/**
 * Keeps the bar showing the state and last event of the `<form-embed>` in `slot`, and how many
 * events `log` holds: after a remint the last event may read as before (a session, attempt 1),
 * and its time and the count say that it is another.
 */
export function glanceAt(slot: HTMLElement, log: HTMLOListElement): void {
  const badge = byId('glance-state');
  const last = byId('glance-event');
  const time = byId('glance-time');
  const count = byId('glance-count');
  // Focus, and the bar's links, scroll what they bring into sight to below the bar, never under it:
  // as high as the bar is now (its event may take two lines), none while it is hidden.
  const bar = byId('glance');
  const fit = () => {
    bar.classList.toggle('unstuck', bar.offsetHeight > innerHeight / 4);
    const stuck = bar.offsetHeight && !bar.classList.contains('unstuck');
    document.documentElement.style.scrollPaddingTop = stuck ? `${bar.offsetHeight + 12}px` : '';
  };
  new ResizeObserver(fit).observe(bar);
  addEventListener('resize', fit);
  const noEvent = () => {
    last.textContent = 'No event yet.';
    time.textContent = '';
  };
  new MutationObserver(() => {
    count.textContent = `(${log.children.length})`;
    // Cleared: the last event goes with the log's.
    if (!log.children.length) noEvent();
  }).observe(log, { childList: true });
  new MutationObserver((records) => {
    // Another form: the last event was the previous element's.
    if (records.some((record) => record.type === 'childList')) noEvent();
    const state = slot.querySelector('form-embed')?.getAttribute('state') ?? 'idle';
    badge.textContent = state;
    badge.dataset.state = state;
  }).observe(slot, { childList: true, subtree: true, attributeFilter: ['state'] });
  for (const type of eventTypes) {
    slot.addEventListener(type, (event) => {
      const gist = gists[type]({ ...event });
      last.textContent = `${type.replace('form-embed-', '')} · ${gist}`;
      time.textContent = new Date().toLocaleTimeString();
    });
  }
}
