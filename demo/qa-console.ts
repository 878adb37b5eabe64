import '@form-embed/element/define';
import { FormEmbedElement, type Messages, messages } from '@form-embed/element';
import de from '@form-embed/element/locales/de';
import es from '@form-embed/element/locales/es';
import fr from '@form-embed/element/locales/fr';
import it from '@form-embed/element/locales/it';
import nl from '@form-embed/element/locales/nl';
import {
  type Catalogue,
  isKnownSessionErrorCode,
  knownSessionErrorCodes,
  SessionErrorCodes,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol/browser';
import { byId, sayInvalid } from './dom.js';
import { logEvents, showState } from './event-log.js';

interface DemoConfig {
  mode: 'sandbox' | 'service';
  persona?: string;
  personas: { id: string; label: string; expect: string }[];
}

const personaSelect = byId<HTMLSelectElement>('persona');
const formSelect = byId<HTMLSelectElement>('form');
const slot = byId<HTMLDivElement>('embed-slot');
const log = byId<HTMLOListElement>('log');
const controlResult = byId<HTMLParagraphElement>('control-result');
let stateObserver: MutationObserver | undefined;
const current = () => slot.querySelector('form-embed') as FormEmbedElement | null;

const config: DemoConfig = await (await fetch('/demo/config')).json();
byId('mode').textContent = config.mode === 'sandbox' ? 'Sandbox' : 'Real service';
byId('controls').hidden = config.mode !== 'sandbox';
byId('signed-in').hidden = config.mode !== 'sandbox';

for (const { id, label } of config.personas) personaSelect.add(new Option(label, id));
personaSelect.value = config.persona ?? '';
const showExpectation = () => {
  byId('persona-expect').textContent =
    config.personas.find((p) => p.id === personaSelect.value)?.expect ?? '';
};
showExpectation();

for (const code of knownSessionErrorCodes) {
  const { status, retryable } = SessionErrorCodes[code];
  byId<HTMLSelectElement>('fail-code').add(
    new Option(`${code} (${status ?? UNKNOWN_CODE_STATUS}${retryable ? ', retryable' : ''})`, code),
  );
}
byId<HTMLSelectElement>('fail-code').add(
  new Option('seat_limit_reached (a code unknown to this release)', 'seat_limit_reached'),
);

/** Frames a new `<form-embed>` for `choice`: `form:<id>` or `core:<slug>`. */
function embed(choice: string, title: string) {
  stateObserver?.disconnect();
  slot.replaceChildren();
  if (!choice) return;
  const element = document.createElement('form-embed') as FormEmbedElement;
  const [kind, id = ''] = choice.split(/:(.*)/s);
  element.setAttribute(kind === 'core' ? 'core-slug' : 'form-id', id);
  element.setAttribute('frame-title', title);
  const info = byId('session-info');
  info.textContent = '';
  let framed = false; // the last event was a session, not an error
  // A new mint makes the last session's details stale.
  stateObserver = showState(element, byId('state'), (state) => {
    if (state === 'minting') info.textContent = '';
    // Failed with no form-embed-error: the remint bound stopped a frame that kept asking for
    // new sessions (posting error or expired: each one counts, up to 4 in 30 minutes).
    if (state === 'failed' && framed) {
      info.textContent = 'stopped: the form asked for new sessions too often (the remint bound)';
    }
  });
  element.addEventListener('form-embed-session', (event) => {
    framed = true;
    info.textContent = `provider ${event.provider} · attempt ${event.attempt} · ${event.embedOrigin}`;
  });
  element.addEventListener('form-embed-error', (event) => {
    framed = false;
    if (config.mode === 'sandbox') void showArmed();
    info.textContent = `${event.code} (${event.status || 'no answer'})${event.willRetry ? ' · retrying' : ''}`;
  });
  logEvents(element, log);
  slot.append(element);
}

async function loadCatalogue() {
  const answer = await fetch('/form-sessions/forms', { cache: 'no-store' });
  formSelect.replaceChildren();
  if (!answer.ok) {
    formSelect.add(new Option(`Catalogue unavailable (${answer.status})`, ''));
    return;
  }
  const { forms } = (await answer.json()) as Catalogue;
  // The kind of form heads a group of options, so that each option (and the side panel) holds
  // the form's name alone.
  const groups = new Map<string, HTMLOptGroupElement>();
  for (const entry of forms) {
    const value = entry.kind === 'form' ? `form:${entry.formId}` : `core:${entry.slug}`;
    const signIn = { microsoft: 'Microsoft sign-in', google: 'Google sign-in', none: 'No sign-in' };
    const kind = entry.kind === 'form' ? signIn[entry.authType] : 'Core forms';
    let group = groups.get(kind);
    if (!group) {
      group = document.createElement('optgroup');
      group.label = kind;
      groups.set(kind, group);
      formSelect.append(group);
    }
    group.append(new Option(entry.name, value));
  }
  embed(formSelect.value, formSelect.selectedOptions[0]?.text ?? 'Embedded form');
}

function signInAs(persona: string) {
  return fetch('/demo/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ persona }),
  });
}

// Signing out leaves the form open, as a portal whose session ends under an open page would.
const signOut = byId<HTMLButtonElement>('sign-out');
const signInAgain = byId<HTMLButtonElement>('sign-in-again');
/** Sign out for whoever the picker signed in; Sign in again only after Sign out. */
const showSignedIn = () => {
  signOut.hidden = personaSelect.value === 'anonymous';
  signInAgain.hidden = true;
};
showSignedIn();

personaSelect.addEventListener('change', async () => {
  await signInAs(personaSelect.value);
  showSignedIn();
  showExpectation();
  await loadCatalogue();
});

signOut.addEventListener('click', async () => {
  await signInAs('anonymous');
  signOut.hidden = true;
  signInAgain.hidden = false;
});
signInAgain.addEventListener('click', async () => {
  await signInAs(personaSelect.value);
  showSignedIn();
  current()?.remint();
});

const packs: Record<string, Messages> = { en: messages, de, fr, es, it, nl };
const langSelect = byId<HTMLSelectElement>('lang');
function useLanguage(lang: string) {
  FormEmbedElement.messages = packs[lang] ?? messages;
  // The element's text is in that language now: a screen reader should pronounce it so.
  slot.lang = lang in packs ? lang : 'en';
  // Repaints an element already on the page in the new language.
  current()?.requestUpdate();
}
const askedLang = new URLSearchParams(location.search).get('lang') ?? 'en';
langSelect.value = askedLang in packs ? askedLang : 'en';
useLanguage(langSelect.value);
langSelect.addEventListener('change', () => useLanguage(langSelect.value));
formSelect.addEventListener('change', () =>
  embed(formSelect.value, formSelect.selectedOptions[0]?.text ?? 'Embedded form'),
);
const formOther = byId<HTMLInputElement>('form-other');
const formOtherError = byId<HTMLParagraphElement>('form-other-error');
byId('form-other-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const typed = formOther.value.trim();
  // Said beside the box: the sandbox controls' result line is hidden on a real service.
  sayInvalid(formOther, formOtherError, typed ? '' : 'Type a form id, or core: and a Core slug.');
  if (!typed) {
    formOther.focus();
    return;
  }
  // The catalogue shows none of its entries, so picking any of them embeds it again.
  formSelect.selectedIndex = -1;
  embed(typed.startsWith('core:') ? typed : `form:${typed}`, typed);
});
formOther.addEventListener('input', () => {
  if (formOther.hasAttribute('aria-invalid')) sayInvalid(formOther, formOtherError, '');
});
byId('clear-log').addEventListener('click', () => log.replaceChildren());

const postControl = (action: string, body: unknown = {}) =>
  fetch(`/demo/control/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

async function control(action: string, body: unknown = {}) {
  const answer = await postControl(action, body);
  controlResult.textContent = answer.ok
    ? `Done: ${action}`
    : `The sandbox refused ${action} (${answer.status})`;
}

const armed = byId<HTMLParagraphElement>('armed');
let armedAsks = 0;
let armedPoll: ReturnType<typeof setTimeout> | undefined;
/**
 * Shows how many mints the failures armed with Arm will still fail, as the sandbox counts them:
 * each failed mint uses one up, whichever page made it.
 */
async function showArmed() {
  clearTimeout(armedPoll);
  const asked = ++armedAsks;
  const answer = await postControl('stats').catch(() => undefined);
  const faults = answer?.ok
    ? ((await answer.json()) as { faults?: { session?: number } }).faults
    : undefined;
  if (asked !== armedAsks) return; // a later look has begun: its answer is the newer one
  const left = faults?.session;
  const text =
    left === undefined
      ? 'Armed failures: unknown (the sandbox did not say).'
      : left === 0
        ? 'Armed failures: none.'
        : `Armed failures: ${left} (the next ${left === 1 ? 'mint fails' : `${left} mints fail`}).`;
  // Written only when it changes: a live region rewritten each second may be read out each time.
  if (armed.textContent !== text) armed.textContent = text;
  if (left === undefined) return;
  // Mints on the other demo pages, or in another tab, use them up too: look again while any is left.
  if (left > 0) armedPoll = setTimeout(showArmed, 1_000);
}

/** The longest latency the box takes: a minute, well past the middleware's 10 s timeoutMs. */
const MAX_LATENCY_MS = 60_000;
const latencyInput = byId<HTMLInputElement>('latency');
const latencyError = byId<HTMLParagraphElement>('latency-error');
/**
 * The box's milliseconds, or undefined with the box marked invalid and saying why: only digits,
 * so that `1e3`, `1.5`, `-0` or an empty box is refused rather than sent as another number.
 */
function checkLatency(): number | undefined {
  const text = latencyInput.value.trim();
  const ms = /^\d{1,6}$/.test(text) ? Number(text) : Number.NaN;
  const problem =
    ms <= MAX_LATENCY_MS
      ? ''
      : `${text ? `“${text}” is not` : 'Type'} a whole number of milliseconds from 0 to ${MAX_LATENCY_MS}, in digits only. Nothing was sent.`;
  sayInvalid(latencyInput, latencyError, problem, 'latency-hint');
  return problem ? undefined : ms;
}
byId('latency-form').addEventListener('submit', (event) => {
  event.preventDefault();
  const ms = checkLatency();
  if (ms !== undefined) return void control('latency', { ms });
  // The line below the controls would still tell of the last action, as if of this one.
  controlResult.textContent = '';
  latencyInput.focus();
});
// Once marked invalid, the box says as soon as what is typed is right again.
latencyInput.addEventListener('input', () => {
  if (latencyInput.hasAttribute('aria-invalid')) checkLatency();
});

const actions: Record<string, () => unknown> = {
  expire: () => control('expire-sessions'),
  burn: () => {
    // Navigating the frame to its embedUrl again redeems the single-use handle a second time.
    const frame = current()?.shadowRoot?.querySelector('iframe');
    if (frame) frame.setAttribute('src', frame.src);
    controlResult.textContent = frame ? 'Done: burn (the frame reloaded)' : 'No frame to reload.';
  },
  remint: () => {
    current()?.remint();
    controlResult.textContent = current() ? 'Done: remint' : 'No form to remint.';
  },
  fail: async () => {
    const code = byId<HTMLSelectElement>('fail-code').value;
    // The sandbox takes the status and retryable flag from the SessionError table.
    const retryable = isKnownSessionErrorCode(code) && SessionErrorCodes[code].retryable;
    await control('fail', {
      kind: 'error',
      scope: 'session',
      code,
      ...(retryable ? { retryAfter: 3 } : {}),
    });
    await showArmed();
  },
  reset: async () => {
    await control('reset');
    await showArmed();
    // The sandbox is as it started: no latency, no armed failure, no session (so the form is
    // reminted, or its next submit would find its session gone).
    latencyInput.value = '0';
    checkLatency();
    current()?.remint();
  },
};
for (const button of document.querySelectorAll<HTMLButtonElement>('[data-action]')) {
  button.addEventListener('click', () => actions[button.dataset.action ?? '']?.());
}

// Not awaited: the form is embedded even while the sandbox has yet to say what is armed.
if (config.mode === 'sandbox') void showArmed();
await loadCatalogue();
