import type { Messages } from '../messages.js';

/** Italian: `FormEmbedElement.messages = it`, or one element's `messages`. */
const it: Readonly<Messages> = {
  loading: 'Caricamento del modulo…',
  retrying: 'Nuovo tentativo…',
  offline: 'Sei offline. In attesa della connessione…',
  storm: 'Impossibile accedere al modulo dopo vari tentativi.',
  retry: 'Riprova',
  lapsed:
    'La sessione è scaduta e il modulo è stato ricaricato. Potrebbe essere necessario reinserire i dati non ancora inviati.',
  dismiss: 'Chiudi',
  frame: 'Modulo incorporato',
  sign_in_required: 'Accedi per aprire questo modulo.',
  unavailable: 'Il modulo non è disponibile al momento.',
  not_found: 'Questo modulo non è disponibile.',
  forbidden: 'Il tuo account non ha accesso a questo modulo.',
  invalid_request: 'Questo modulo non è configurato correttamente.',
  unknown: 'Si è verificato un errore.',
};
export default it;
