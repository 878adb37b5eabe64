import '@form-embed/element/define';
import type { FormEmbedElement } from '@form-embed/element';
import { type Catalogue, readSessionError } from '@form-embed/protocol/browser';
import { listForms } from './catalogue-options.js';
import { askedFor, choiceOf, keepInAddress, keepInLinks, typedOf } from './console-address.js';
import { clearResultOnActions } from './control-result.js';
import { byId, query, sayInvalid } from './dom.js';
import { logEvents, showState } from './event-log.js';
import { glanceAt } from './glance.js';
import { pickLanguage } from './language-picker.js';
import { type PersonaConfig, portalSignIn } from './portal-sign-in.js';
import { sandboxControls } from './sandbox-controls.js';

interface DemoConfig extends PersonaConfig {
  mode: 'sandbox' | 'service';
  /** On a real service: the FormSessionRequest user of every mint, null for none. */
  serviceUser?: object | null;
}

const formSelect = byId<HTMLSelectElement>('form');
const slot = byId<HTMLDivElement>('embed-slot');
const log = byId<HTMLOListElement>('log');
let stateObserver: MutationObserver | undefined;
/** What was embedded last, and whether it was typed in the box rather than picked in the list. */
let chosen: { choice: string; title: string; typed: boolean } | undefined;
const current = () => slot.querySelector('form-embed') as FormEmbedElement | null;
glanceAt(slot, log);

const config: DemoConfig = await fetch('/demo/config')
  .then((answer) => answer.json())
  .catch((error: unknown) => {
    // The panel stays inert: say why, where the page says what it runs on.
    byId('mode').textContent =
      `The console could not read /demo/config (${error}): reload the page`;
    throw error;
  });
byId('mode').textContent = config.mode === 'sandbox' ? 'Sandbox' : 'Real service';
// On a real service only the controls that drive the sandbox go: Burn and Remint act on the
// element and its frame, which work on any service, and the console says why the rest is gone.
const onSandbox = config.mode === 'sandbox';
for (const piece of document.querySelectorAll<HTMLElement>('[data-sandbox-only]')) {
  piece.hidden = !onSandbox;
}
byId('controls-heading').textContent = onSandbox ? 'Sandbox controls' : 'Form controls';
byId('no-sandbox').hidden = onSandbox;
byId('signed-in').hidden = config.mode !== 'sandbox';
byId('service-user').hidden = onSandbox;
byId('service-user-text').textContent = config.serviceUser
  ? Object.entries(config.serviceUser)
      .map(([field, value]) => `${field}: ${value}`)
      .join('\n')
  : 'No user: FORM_EMBED_USER is not set, so only forms that need no sign-in open.';

/** The catalogue was last listed with nobody signed in, after Sign out. */
let listedSignedOut = false;
const signIn = portalSignIn(config, {
  userChanged: async () => {
    await loadCatalogue();
  },
  async signedInAgain() {
    // Listed signed out (the page was reloaded since Sign out): this user's list may be longer. A
    // listing begun since (another user) embeds its own form: reminting that one would mint twice.
    if (listedSignedOut && !(await loadCatalogue(true))) return;
    current()?.remint();
  },
});
clearResultOnActions(query(document, '.panel'));
const { showArmed, showLatency } = sandboxControls(current);

/** Frames a new `<form-embed>` for `choice`: `form:<id>` or `core:<slug>`. */
function embed(choice: string, title: string, typed = false) {
  chosen = choice ? { choice, title, typed } : undefined;
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
    // Status 0: no answer arrived, or the element refused to ask (a bad form id) or refused the
    // answer (an embedUrl off its embedOrigin), so not 'no answer' alone.
    const status = event.status || 'no answer, or refused by the element';
    info.textContent = `${event.code} (${status})${event.willRetry ? ' · retrying' : ''}`;
  });
  logEvents(element, log);
  slot.append(element);
}

const catalogueError = byId<HTMLParagraphElement>('catalogue-error');
const listAgain = byId<HTMLButtonElement>('catalogue-retry');
/**
 * Says under the catalogue why it could not be listed (read with the list), with List again, or
 * nothing.
 */
function sayCatalogueError(problem: string | undefined) {
  catalogueError.textContent = problem ?? '';
  catalogueError.hidden = !problem;
  listAgain.hidden = !problem;
  if (problem) formSelect.setAttribute('aria-describedby', catalogueError.id);
  else formSelect.removeAttribute('aria-describedby');
}

/** The listings started: an answer to any but the last is another user's, or stale. */
let listings = 0;

/**
 * Lists the catalogue for whoever is signed in, then embeds the form chosen, unless `listOnly`.
 * False when a later listing began meanwhile: this one then changes nothing.
 */
async function loadCatalogue(listOnly = false): Promise<boolean> {
  const listing = ++listings;
  listedSignedOut = signIn.isSignedOut();
  // No answer at all (the portal stopped) is a failure as any other, with List again.
  const answer = await fetch('/form-sessions/forms', { cache: 'no-store' }).catch(() => undefined);
  const body: unknown = await answer?.json().catch(() => undefined);
  // Another user signed in, or List again was pressed, while this answer was on its way.
  if (listing !== listings) return false;
  formSelect.replaceChildren();
  sayCatalogueError(undefined);
  if (!answer?.ok) {
    // The middleware's SessionError: on a real service a wrong FORM_EMBED_API_KEY or base URL
    // shows here first, and the tester should not have to open the network panel to learn it.
    const error = readSessionError(body);
    formSelect.add(new Option(`Catalogue unavailable (${answer?.status ?? 'no answer'})`, ''));
    sayCatalogueError(
      `${error ? `${error.code}: ${error.message}` : 'No SessionError came back.'} The terminal running npm start says why.`,
    );
    // The form the address names, or the tester chose, all the same: its mint says what fails.
    if (!listOnly && chosen) embed(chosen.choice, chosen.title, chosen.typed);
    return true;
  }
  listForms(formSelect, (body as Catalogue).forms);
  // A new user keeps the form the tester chose, typed or picked (if this user's list has it),
  // rather than the list's first one, which that user may well be unable to open.
  const kept = chosen;
  const listed = kept && [...formSelect.options].some((option) => option.value === kept.choice);
  if (listOnly || kept?.typed) {
    // The form on the page stays (or a typed one is embedded again): the list shows it if listed.
    if (kept && listed && !kept.typed) formSelect.value = kept.choice;
    else formSelect.selectedIndex = -1;
    if (!listOnly && kept) embed(kept.choice, kept.title, true);
    return true;
  }
  if (kept && !listed && listedSignedOut) {
    // Reloaded after Sign out (the address names the form): the form stays, as it was on the page
    // the tester signed out under, though nobody's list has it; Sign in again remints it.
    formSelect.selectedIndex = -1;
    embed(kept.choice, kept.title);
    return true;
  }
  if (kept && listed) formSelect.value = kept.choice;
  embed(formSelect.value, formSelect.selectedOptions[0]?.text ?? 'Embedded form');
  // The list's first stands in for this user only: the tester's choice still holds for the next
  // user whose list has it (Alex's Google form, through Nobody, who sees only the open form).
  if (kept && !listed) chosen = kept;
  return true;
}

pickLanguage(byId<HTMLSelectElement>('lang'), slot, () => current()?.requestUpdate());
keepInLinks();
formSelect.addEventListener('change', () => {
  // The box's complaint is about a form no longer asked for.
  sayInvalid(formOther, formOtherError, '');
  embed(formSelect.value, formSelect.selectedOptions[0]?.text ?? 'Embedded form');
  // ?form= a form picked in the list, ?embed= one typed in the box.
  keepInAddress({ form: typedOf(formSelect.value), embed: undefined });
});
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
  embed(choiceOf(typed), typed, true);
  keepInAddress({ embed: typed, form: undefined });
});
formOther.addEventListener('input', () => {
  if (formOther.hasAttribute('aria-invalid')) sayInvalid(formOther, formOtherError, '');
});
byId('clear-log').addEventListener('click', () => log.replaceChildren());
// A form on the page stays as it is (its own Try again, or Remint, frames it again).
listAgain.addEventListener('click', () => loadCatalogue(Boolean(current())));

// The panel is inert until here (index.html): a click before its handlers were set, while the
// config was fetched, was lost, and the Embed box's submit reloaded the page.
query(document, '.panel').inert = false;

// Not awaited: the form is embedded even while the sandbox has yet to say what is armed.
if (config.mode === 'sandbox') {
  void showArmed();
  void showLatency();
}
// The form the address names, picked or typed: the one the tester chose before a reload.
const askedForm = askedFor('embed') || askedFor('form');
if (askedForm) {
  const typed = Boolean(askedFor('embed'));
  chosen = { choice: choiceOf(askedForm), title: askedForm, typed };
  if (typed) formOther.value = askedForm;
}
await loadCatalogue();
