/**
 * Codes the portal's middleware answers on its own, beside the service's SessionError codes
 * (docs/contract.md#portal-codes). They travel in the same `{error: {code, message, retryable}}`
 * shape to the element but are never sent to, or received from, the service.
 */
export const PortalErrorCodes = {
  /** `resolveUser` found no signed-in user and the form needs one. Sign in, then remint. */
  sign_in_required: { status: 401, retryable: false },
} as const satisfies Record<string, { status: number; retryable: boolean }>;

/** A code of `PortalErrorCodes`: `sign_in_required`. */
export type PortalErrorCode = keyof typeof PortalErrorCodes;

/** True for a code of `PortalErrorCodes` (the middleware's own), false for anything else. */
export function isPortalErrorCode(code: unknown): code is PortalErrorCode {
  return typeof code === 'string' && Object.hasOwn(PortalErrorCodes, code);
}
