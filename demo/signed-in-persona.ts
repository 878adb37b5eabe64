import type { Request } from 'express';
import { defaultPersona, isPersonaId, type PersonaId } from './personas.js';

export const PERSONA_COOKIE = 'demo_persona';

/** The persona named by the demo's sign-in cookie; the default one when there is none. */
export function signedInPersona(req: Request): PersonaId {
  for (const pair of (req.headers.cookie ?? '').split(';')) {
    const [name, value] = pair.trim().split('=');
    if (name === PERSONA_COOKIE && isPersonaId(value)) return value;
  }
  return defaultPersona;
}
