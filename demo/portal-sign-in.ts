// The console's "Signed in as" section: the persona picker, the line saying what the sandbox
// answers that persona, and Sign out and Sign in again. The signed-in persona lives in the demo's
// cookies, as a portal's user in its session cookie: a reload shows what the page showed.
import { byId } from './dom.js';

export interface PersonaConfig {
  persona?: string;
  /** Signed out by Sign out: the persona Sign in again brings back. */
  signedOut?: string;
  personas: { id: string; label: string; expect: string }[];
}

function signInAs(persona: string) {
  return fetch('/demo/sign-in', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ persona }),
  });
}

/**
 * Wires the section: `userChanged` runs once the picker signed another persona in, and
 * `signedInAgain` once Sign in again did. Returns `isSignedOut`: nobody signed in since Sign out.
 */
export function portalSignIn(
  config: PersonaConfig,
  hooks: { userChanged(): Promise<void>; signedInAgain(): Promise<void> },
) {
  const personaSelect = byId<HTMLSelectElement>('persona');
  for (const { id, label } of config.personas) personaSelect.add(new Option(label, id));
  // Signed out, the picker names whom Sign in again brings back, as it did before the reload.
  personaSelect.value = config.signedOut ?? config.persona ?? '';
  let signedOut = false;
  const showExpectation = () => {
    byId('persona-expect').textContent =
      config.personas.find((p) => p.id === personaSelect.value)?.expect ?? '';
  };

  // Signing out leaves the form open, as a portal whose session ends under an open page would.
  const signOut = byId<HTMLButtonElement>('sign-out');
  const signInAgain = byId<HTMLButtonElement>('sign-in-again');
  /** Sign out for whoever the picker signed in; Sign in again only after Sign out. */
  const showSignedIn = () => {
    signedOut = false;
    signOut.hidden = personaSelect.value === 'anonymous';
    signInAgain.hidden = true;
    showExpectation();
  };
  const showSignedOut = () => {
    signedOut = true;
    signOut.hidden = true;
    signInAgain.hidden = false;
    // The picker still names whom Sign in again brings back: the line below it says who is in now.
    byId('persona-expect').textContent =
      `Signed out: the portal has nobody signed in. Sign in again signs ${personaSelect.selectedOptions[0]?.text} back in.`;
  };
  if (config.signedOut) showSignedOut();
  else showSignedIn();

  personaSelect.addEventListener('change', async () => {
    await signInAs(personaSelect.value);
    showSignedIn();
    await hooks.userChanged();
  });
  signOut.addEventListener('click', async () => {
    await fetch('/demo/sign-out', { method: 'POST' });
    showSignedOut();
    // The button pressed has gone: focus goes to the one in its place, not back to the page's top.
    signInAgain.focus();
  });
  signInAgain.addEventListener('click', async () => {
    await signInAs(personaSelect.value);
    showSignedIn();
    signOut.focus();
    await hooks.signedInAgain();
  });
  return { isSignedOut: () => signedOut };
}
