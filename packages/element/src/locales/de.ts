import type { Messages } from '../messages.js';

/** German: `FormEmbedElement.messages = de`, or one element's `messages`. */
const de: Readonly<Messages> = {
  loading: 'Das Formular wird geladen\u00a0…',
  retrying: 'Neuer Versuch\u00a0…',
  offline: 'Sie sind offline. Warten auf die Verbindung\u00a0…',
  storm: 'Die Anmeldung am Formular ist mehrmals fehlgeschlagen.',
  retry: 'Erneut versuchen',
  lapsed:
    'Ihre Sitzung ist abgelaufen, und das Formular wurde neu geladen. Noch nicht abgesendete Angaben müssen Sie möglicherweise erneut eingeben.',
  dismiss: 'Schließen',
  frame: 'Eingebettetes Formular',
  sign_in_required: 'Melden Sie sich an, um dieses Formular zu öffnen.',
  unavailable: 'Das Formular ist derzeit nicht verfügbar.',
  not_found: 'Dieses Formular ist nicht verfügbar.',
  forbidden: 'Ihr Konto hat keinen Zugriff auf dieses Formular.',
  invalid_request: 'Dieses Formular ist nicht richtig eingerichtet.',
  unknown: 'Es ist ein Fehler aufgetreten.',
};
export default de;
