import '@form-embed/element/define';
import { byId, query } from './dom.js';
import { logEvents, showState } from './event-log.js';
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
  card.innerHTML = `<div class="state-bar">${title} <span class="state"></span></div>
    <form-embed id="embed-${id}" ${attribute}="${value}" frame-title="${title}"></form-embed>
    <div class="log"><ol data-log="${id}"></ol></div>`;
  byId('embeds').append(card);
  const element = query(card, 'form-embed');
  showState(element, query(card, '.state'));
  logEvents(element, query<HTMLOListElement>(card, 'ol'));
}
