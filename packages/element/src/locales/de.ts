import type { Messages } from '../messages.js';

/** German: `FormEmbedElement.messages = de`, or one element's `messages`. */
const de: Messages = {
  loading: 'Das Formular wird geladen …',
  retrying: 'Neuer Versuch …',
  offline: 'Sie sind offline. Warten auf die Verbindung …',
  storm: 'Die Anmeldung am Formular schlägt immer wieder fehl.',
  retry: 'Erneut versuchen',
  lapsed:
    'Ihre Sitzung ist abgelaufen, und das Formular wurde neu geladen. Noch nicht gesendete Eingaben müssen Sie eventuell erneut ausfüllen.',
  dismiss: 'Schließen',
  frame: 'Eingebettetes Formular',
  sign_in_required: 'Melden Sie sich erneut an, um dieses Formular zu öffnen.',
  unavailable: 'Das Formular ist gerade nicht verfügbar.',
  not_found: 'Dieses Formular ist nicht verfügbar.',
  forbidden: 'Ihr Konto kann dieses Formular nicht öffnen.',
  invalid_request: 'Dieses Formular ist nicht richtig eingerichtet.',
  unknown: 'Etwas ist schiefgelaufen.',
};
export default de;
