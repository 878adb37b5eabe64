/** What a person reads in the status area while there is no frame. */
export const messages = {
  loading: 'Loading the form…',
  retrying: 'Trying again…',
  offline: 'You are offline. Waiting…',
  storm: 'The form keeps failing to sign you in.',
} as const;

/**
 * What a person reads when a mint failed, by code: never the operator `message` of a
 * SessionError. Each code of the SessionError table is in exactly one group.
 */
export const failureMessages: readonly (readonly [message: string, codes: string])[] = [
  [
    'The form is unavailable right now.',
    'rate_limited internal_error unavailable microsoft_unavailable',
  ],
  [
    'This form is not available.',
    'form_not_found form_unpublished form_session_unsupported client_not_entitled not_found',
  ],
  [
    'Your account cannot open this form.',
    'client_not_found client_not_connected tenant_not_connected user_not_found invalid_user_identifier microsoft_permission_denied forbidden',
  ],
  [
    'This form is not set up correctly.',
    'invalid_request invalid_api_key microsoft_connection_failed',
  ],
];

/** What a person reads for `code`; `unknown` and any code this release does not know read alike. */
export function failureMessage(code: string): string {
  return (
    failureMessages.find(([, codes]) => codes.split(' ').includes(code))?.[0] ??
    'Something went wrong.'
  );
}
