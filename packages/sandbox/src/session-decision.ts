/**
 * What a form-session decision is, and the small rules every decision shares
 * (docs/contract.md#form-sessions, #session-errors): the refusal shape, identifier shapes, the
 * organisation's clients, and the request body.
 */
import {
  FormSessionRequestSchema,
  type FormSessionUser,
  type Provider,
  type SessionErrorCode,
} from '@form-embed/protocol';
import { type ClientRecord, clients } from './fixtures.js';
import type { MicrosoftConnection } from './microsoft-connection.js';

export interface Refusal {
  ok: false;
  code: SessionErrorCode;
  message: string;
  retryAfter?: number;
}

export interface Grant {
  ok: true;
  provider: Provider;
  /** Whether a handle is issued (false only for a none form with no user). */
  handle: boolean;
  identifier: string | undefined;
}

export type Decision = Grant | Refusal;

export interface RuleContext {
  organisationId: string;
  microsoftConnection: MicrosoftConnection;
}

export const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function refuse(code: SessionErrorCode, message: string, retryAfter?: number): Refusal {
  return retryAfter === undefined
    ? { ok: false, code, message }
    : { ok: false, code, message, retryAfter };
}

/** Parses the raw body of a form-session request; an empty body is `{}`. */
export function parseFormSessionBody(raw: string): { user?: FormSessionUser } | Refusal {
  if (raw.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return refuse('invalid_request', 'The body is not valid JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return refuse('invalid_request', 'The body must be a JSON object.');
  }
  const parsed = FormSessionRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'body';
    return refuse('invalid_request', `${where}: ${issue?.message ?? 'invalid'}.`);
  }
  return parsed.data.user ? { user: parsed.data.user } : {};
}

export function organisationClient(
  context: RuleContext,
  clientId: string,
): ClientRecord | undefined {
  return clients.find((c) => c.id === clientId && c.organisationId === context.organisationId);
}
