/** What a person reads in the status area. Never the operator `message` of a SessionError. */
export const messages = {
  loading: 'Loading the form…',
  retrying: 'Still loading. Trying again…',
  offline: 'You are offline. Waiting for the connection…',
  busy: 'The form is unavailable right now.',
  gone: 'This form is not available.',
  account: 'Your account cannot open this form.',
  setup: 'This form is not set up correctly.',
  unknown: 'Something went wrong.',
  storm: 'The form keeps failing to sign you in.',
} as const;

/** The code decides the message; every code of the SessionError table is in one group. */
const codesOf: Partial<Record<keyof typeof messages, string>> = {
  setup: 'invalid_request invalid_api_key microsoft_connection_failed',
  busy: 'rate_limited microsoft_unavailable internal_error unavailable',
  gone: 'form_not_found form_unpublished form_session_unsupported client_not_entitled not_found',
  account:
    'client_not_found client_not_connected tenant_not_connected user_not_found invalid_user_identifier microsoft_permission_denied forbidden',
};

/** What a person reads for `code`; a code this release does not know reads as `unknown`. */
export function failureMessage(code: string): string {
  for (const [group, codes] of Object.entries(codesOf)) {
    if (codes.split(' ').includes(code)) return messages[group as keyof typeof messages];
  }
  return messages.unknown;
}
