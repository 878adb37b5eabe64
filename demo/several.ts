import '@form-embed/element/define';
import { burnHandle } from './burn-handle.js';
import { askedFor } from './console-address.js';
import { byId } from './dom.js';
import { logEvents, showState } from './event-log.js';
import { useLanguage } from './language-picker.js';
import { renderHeader } from './page-header.js';

renderHeader('Several embeds');

const embeds = [
  { id: 'ms', attribute: 'form-id', value: 'form_microsoft', title: 'IT request' },
  { id: 'open', attribute: 'form-id', value: 'form_open', title: 'Feedback' },
  { id: 'core', attribute: 'core-slug', value: 'new-starter', title: 'New starter' },
];

for (const { id, attribute, value, title } of embeds) {
  const card = document.createElement('section');
  card.className = 'stage';
  card.setAttribute('aria-label', title);
  const element = document.createElement('form-embed');
  element.id = `embed-${id}`;
  element.setAttribute(attribute, value);
  element.setAttribute('frame-title', title);
  useLanguage(askedFor('lang'), element);
  // Built node by node: under the portal's Trusted Types an innerHTML string is refused.
  const bar = Object.assign(document.createElement('div'), { className: 'state-bar' });
  const badge = Object.assign(document.createElement('span'), { className: 'state' });
  const burn = Object.assign(document.createElement('button'), {
    type: 'button',
    textContent: 'Burn its handle (reload the frame)',
  });
  burn.addEventListener('click', () => burnHandle(element));
  // A form that needs no sign-in is framed with no handle: its button only reloads the frame.
  element.addEventListener('form-embed-session', (event) => {
    burn.textContent = event.expiresIn
      ? 'Burn its handle (reload the frame)'
      : 'Reload the frame (no handle to burn)';
  });
  bar.append(`${title} `, badge, burn);
  const log = Object.assign(document.createElement('div'), { className: 'log' });
  const list = log.appendChild(document.createElement('ol'));
  list.dataset.log = id;
  card.append(bar, element, log);
  byId('embeds').append(card);
  showState(element, badge);
  logEvents(element, list);
}
