/**
 * What a form-session decision is, and the small rules every decision shares
 * (docs/contract.md#form-sessions, #session-errors): the refusal shape, identifier shapes and
 * the organisation's clients. The request body is read in `form-session-body.ts`.
 */
import type { FormSession, SessionErrorCode } from '@form-embed/protocol';
import { type ClientRecord, clientsOf } from './fixtures.js';
import type { HeldMicrosoftConnection } from './microsoft-connection.js';

export interface Refusal {
  ok: false;
  code: SessionErrorCode;
  message: string;
  retryAfter?: number;
}

export interface Grant {
  ok: true;
  /** One of the contract's four: the sandbox names no provider a release may not know. */
  provider: FormSession['provider'];
  /** Whether a handle is issued (false only for a none form with no user). */
  handle: boolean;
  identifier: string | undefined;
}

export type Decision = Grant | Refusal;

export interface RuleContext {
  organisationId: string;
  microsoftConnection: HeldMicrosoftConnection;
}

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function refuse(code: SessionErrorCode, message: string, retryAfter?: number): Refusal {
  return retryAfter === undefined
    ? { ok: false, code, message }
    : { ok: false, code, message, retryAfter };
}

export function organisationClient(
  context: RuleContext,
  clientId: string,
): ClientRecord | undefined {
  return clientsOf(context.organisationId).find((c) => c.id === clientId);
}
