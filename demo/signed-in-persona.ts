import type { Request } from 'express';
import { defaultPersona, isPersonaId, type PersonaId } from './personas.js';

export const PERSONA_COOKIE = 'demo_persona';
/** Who pressed the console's Sign out, whom its Sign in again brings back: kept through a reload. */
export const SIGNED_OUT_COOKIE = 'demo_signed_out';

/** The persona a cookie of the request names, if it names one. */
function personaIn(req: Request, cookie: string): PersonaId | undefined {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === cookie && isPersonaId(value)) return value;
  }
  return undefined;
}

/** The persona named by the demo's sign-in cookie; the default one when there is none. */
export function signedInPersona(req: Request): PersonaId {
  return personaIn(req, PERSONA_COOKIE) ?? defaultPersona;
}

/** Signed out with the console's Sign out: the persona who was signed in then. */
export function signedOutPersona(req: Request): PersonaId | undefined {
  return signedInPersona(req) === 'anonymous' ? personaIn(req, SIGNED_OUT_COOKIE) : undefined;
}
