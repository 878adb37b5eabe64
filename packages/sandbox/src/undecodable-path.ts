/**
 * Express's refusal of a path parameter that is not valid percent-encoding (`/%E0%A4%A`): a
 * URIError with status 400 and, unlike body-parser's refusals, no `type`.
 */
export function isUndecodablePath(error: unknown): boolean {
  return error instanceof URIError && !('type' in error);
}
