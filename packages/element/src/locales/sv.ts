import type { Messages } from '../messages.js';

/** Swedish: `FormEmbedElement.messages = sv`, or one element's `messages`. */
const sv: Readonly<Messages> = {
  loading: 'Formuläret läses in…',
  retrying: 'Försöker igen…',
  offline: 'Du är offline. Väntar på anslutning…',
  storm: 'Inloggningen till formuläret har misslyckats flera gånger.',
  retry: 'Försök igen',
  lapsed:
    'Din session har gått ut och formuläret har lästs in på nytt. Uppgifter som inte har skickats än kan behöva fyllas i igen.',
  dismiss: 'Stäng',
  frame: 'Inbäddat formulär',
  sign_in_required: 'Logga in för att öppna formuläret.',
  unavailable: 'Formuläret är inte tillgängligt just nu.',
  not_found: 'Formuläret är inte tillgängligt.',
  forbidden: 'Ditt konto har inte åtkomst till formuläret.',
  invalid_request: 'Formuläret är inte korrekt konfigurerat.',
  unknown: 'Något gick fel.',
};
export default sv;
