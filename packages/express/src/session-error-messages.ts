import type { KnownSessionErrorCode, PortalErrorCode } from '@form-embed/protocol';

/**
 * The `message` the browser gets for a refusal that came from the service, or for a portal code
 * (`portalError`): a fixed sentence of ours per code, for operators
 * (docs/contract.md#session-errors). The service's own `message` goes to the log only, redacted.
 */
export const sessionErrorMessages: Record<KnownSessionErrorCode | PortalErrorCode, string> = {
  invalid_request: 'The service refused the request as invalid.',
  invalid_api_key: 'The service refused the API key.',
  rate_limited: "The organisation's rate limit at the service was reached.",
  form_not_found: 'The service has no such form in this organisation.',
  form_unpublished: 'The Core form is not available publicly.',
  form_session_unsupported: "The form's sign-in type cannot take an embedded session.",
  client_not_found: "The user's client is not one of the organisation's clients.",
  client_not_connected: "The user's client has no identity tenant connected.",
  client_not_entitled: "The Core form is withdrawn for the user's client.",
  tenant_not_connected: "The user's tenant is not a client the organisation manages.",
  user_not_found: "The user is not in the client's directory.",
  invalid_user_identifier: 'The identity provider rejected the user identifier.',
  microsoft_permission_denied: "The organisation's Microsoft connection may not read this user.",
  microsoft_unavailable: 'Microsoft is throttling or unavailable.',
  microsoft_connection_failed:
    "The organisation's Microsoft connection is not working; an administrator must reconnect it.",
  internal_error: 'The service had an unexpected error.',
  forbidden: 'The service refused the request.',
  not_found: 'The service did not find something the request named.',
  unavailable: 'A dependency of the service is unavailable.',
  unknown: 'The service refused the request for a reason this release does not know.',
  sign_in_required: 'Nobody is signed in, and this request needs a signed-in user.',
};
