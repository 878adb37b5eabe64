import { FormSessionRequestSchema, type FormSessionUser } from '@form-embed/protocol';
import { type Refusal, refuse } from './session-decision.js';

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
