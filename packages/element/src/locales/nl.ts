import type { Messages } from '../messages.js';

/** Dutch: `FormEmbedElement.messages = nl`, or one element's `messages`. */
const nl: Readonly<Messages> = {
  loading: 'Het formulier wordt geladen…',
  retrying: 'Nieuwe poging…',
  offline: 'Je bent offline. Wachten op verbinding…',
  storm: 'Aanmelden bij het formulier is meerdere keren mislukt.',
  retry: 'Opnieuw proberen',
  lapsed:
    'Je sessie is verlopen en het formulier is opnieuw geladen. Gegevens die nog niet zijn verzonden, moet je mogelijk opnieuw invullen.',
  dismiss: 'Sluiten',
  frame: 'Ingesloten formulier',
  sign_in_required: 'Meld je aan om dit formulier te openen.',
  unavailable: 'Het formulier is op dit moment niet beschikbaar.',
  not_found: 'Dit formulier is niet beschikbaar.',
  forbidden: 'Je account heeft geen toegang tot dit formulier.',
  invalid_request: 'Dit formulier is niet goed ingesteld.',
  unknown: 'Er is iets misgegaan.',
};
export default nl;
