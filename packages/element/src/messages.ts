// The English messages, whose keys are the MessageKeys.
const english = {
  loading: 'Loading the form…',
  retrying: 'Trying again…',
  offline: 'You are offline. Waiting to reconnect…',
  storm: 'The form keeps failing to sign you in.',
  retry: 'Try again',
  lapsed:
    'Your session timed out and the form was reloaded. Entries not yet sent may need to be filled in again.',
  dismiss: 'Dismiss',
  frame: 'Embedded form',
  sign_in_required: 'Sign in to open this form.',
  unavailable: 'The form is unavailable right now.',
  not_found: 'This form is not available.',
  forbidden: 'Your account cannot open this form.',
  invalid_request: 'This form is not set up correctly.',
  unknown: 'Something went wrong.',
};

/**
 * Every sentence a person can read in `<form-embed>`, in English. A page replaces them wholly or
 * per key, for one element (`messages`) or for all (`FormEmbedElement.messages`); the packs in
 * `@form-embed/element/locales/*` hold the same keys. Failure keys are SessionError codes: each
 * names the group of codes that read alike (the README's Translation table), and a page may add a
 * key for any single code. Text is always set as text, never parsed as HTML. Read-only: a page
 * that wants other words assigns its own object, and English stays what the others fall back to.
 */
export const messages: Readonly<Messages> = english;

/** A key of `messages`: a state's sentence, a button's label, or a group of failure codes. */
export type MessageKey = keyof typeof english;
/** A whole set of messages, every `MessageKey` worded: what a locale pack is. */
export type Messages = Record<MessageKey, string>;

/** A page's messages: any of the keys, and a key per SessionError code it wants worded apart. */
export type MessageOverrides = Partial<Messages> & { [code: string]: string | undefined };

/**
 * The codes each failure key stands for, besides itself (docs/contract.md#session-errors). Every
 * code of the SessionError table and of the portal codes reads as one key; a test holds it so.
 */
export const FAILURE_GROUPS: Record<string, string> = {
  unavailable: 'rate_limited internal_error microsoft_unavailable',
  not_found: 'form_not_found form_unpublished form_session_unsupported client_not_entitled',
  forbidden:
    'client_not_found client_not_connected tenant_not_connected user_not_found invalid_user_identifier microsoft_permission_denied',
  invalid_request: 'invalid_api_key microsoft_connection_failed untrusted_origin',
};

/**
 * The key `code` reads as in `from`: its own (a page's message for that code, or a group's key),
 * its group's, or `unknown` for any other code. The other keys are the sentences of other states;
 * the middleware never passes on a code named as one (`ELEMENT_SENTENCE_KEYS`).
 */
export function failureKey(code: string, from: MessageOverrides): string {
  if (Object.hasOwn(from, code)) return code;
  for (const key in FAILURE_GROUPS)
    if ((FAILURE_GROUPS[key] as string).split(' ').includes(code)) return key;
  return 'unknown';
}
