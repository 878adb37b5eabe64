/** What a person reads in the status area. Never the operator `message` of a SessionError. */
export const messages = {
  loading: 'Loading the form…',
  retrying: 'Trying again…',
  offline: 'You are offline. Waiting…',
  storm: 'The form keeps failing to sign you in.',
  busy: 'The form is unavailable right now.',
  gone: 'This form is not available.',
  account: 'Your account cannot open this form.',
  setup: 'This form is not set up correctly.',
  unknown: 'Something went wrong.',
} as const;

/** The code decides the message; each code of the SessionError table is in exactly one group. */
const groups = {
  busy: /^(rate_limited|internal_error|(microsoft_)?unavailable)$/,
  gone: /^(form_(not_found|unpublished|session_unsupported)|client_not_entitled|not_found)$/,
  account:
    /^(client_not_(found|connected)|tenant_not_connected|user_not_found|invalid_user_identifier|microsoft_permission_denied|forbidden)$/,
  setup: /^(invalid_(request|api_key)|microsoft_connection_failed)$/,
};

/** What a person reads for `code`; a code this release does not know reads as `unknown`. */
export function failureMessage(code: string): string {
  const group = (Object.keys(groups) as (keyof typeof groups)[]).find((g) => groups[g].test(code));
  return messages[group ?? 'unknown'];
}
