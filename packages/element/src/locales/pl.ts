import type { Messages } from '../messages.js';

/** Polish: `FormEmbedElement.messages = pl`, or one element's `messages`. */
const pl: Readonly<Messages> = {
  loading: 'Wczytywanie formularza…',
  retrying: 'Ponowna próba…',
  offline: 'Nie masz połączenia z internetem. Oczekiwanie na połączenie…',
  storm: 'Logowanie do formularza nie powiodło się kilka razy z rzędu.',
  retry: 'Spróbuj ponownie',
  lapsed:
    'Twoja sesja wygasła i formularz został wczytany ponownie. Dane, których jeszcze nie wysłano, być może trzeba będzie wpisać od nowa.',
  dismiss: 'Zamknij',
  frame: 'Osadzony formularz',
  sign_in_required: 'Zaloguj się, aby otworzyć ten formularz.',
  unavailable: 'Formularz jest w tej chwili niedostępny.',
  not_found: 'Ten formularz jest niedostępny.',
  forbidden: 'Twoje konto nie ma dostępu do tego formularza.',
  invalid_request: 'Ten formularz nie jest poprawnie skonfigurowany.',
  unknown: 'Coś poszło nie tak.',
};
export default pl;
