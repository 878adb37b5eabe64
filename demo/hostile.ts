import '@form-embed/element/define';
import { askedFor } from './console-address.js';
import { byId } from './dom.js';
import { logEvents, showState } from './event-log.js';
import { useLanguage } from './language-picker.js';
import { renderHeader } from './page-header.js';

renderHeader('Hostile frame');
const element = byId('target');
useLanguage(askedFor('lang'), element);
showState(element, byId('state'));
logEvents(element, byId<HTMLOListElement>('log'));

// The same demo server under another host name is another origin (Chromium resolves
// *.localhost to loopback), like a third-party frame on a real portal page.
const hostile = byId<HTMLIFrameElement>('hostile-frame');
hostile.src = `${location.protocol}//hostile.localhost:${location.port}/hostile-frame.html`;

/** Says what was just sent, so that a log that stays empty reads as refused, not as not sent. */
const sent = (what: string) => {
  byId('sent').textContent =
    `${new Date().toLocaleTimeString()}: ${what}. The element should not remint: its state and log stay as they are.`;
};

byId('forge-from-page').addEventListener('click', () => {
  window.postMessage({ type: 'service:form-session', state: 'expired' }, '*');
  sent('posted a forged expired message from the page');
});

// A real `error` message from the embed origin: the embedUrl's single-use handle is redeemed
// by the first frame, so the second frame's page says `error` to this window.
byId('stolen-embed').addEventListener('click', async () => {
  const answer = await fetch('/form-sessions/forms/form_open/session', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  const { embedUrl, expiresIn } = await answer.json();
  // Signed out, the open form is framed with no handle: nothing to reuse, and nothing posted.
  if (!answer.ok || !expiresIn) {
    byId('sent').textContent = answer.ok
      ? 'Nothing framed: signed out, this form comes with no handle to reuse. Sign in on the console first.'
      : `Nothing framed: the mint answered ${answer.status}.`;
    return;
  }
  const first = Object.assign(document.createElement('iframe'), {
    title: 'Stolen embed, first use',
    src: embedUrl,
  });
  const second = Object.assign(document.createElement('iframe'), {
    title: 'Stolen embed, second use',
  });
  first.addEventListener(
    'load',
    () => {
      second.src = embedUrl;
    },
    { once: true },
  );
  byId('stolen').replaceChildren(first, second);
  sent('framed a reused embedUrl twice: its second page posts error, to this window');
});
