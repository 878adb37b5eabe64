import { API_KEY_PREFIX, apiKeys } from './fixtures.js';

export type Authentication =
  | { ok: true; apiKey: string; organisationId: string }
  | { ok: false; message: string };

/**
 * Reads `Authorization: Bearer <API_KEY>`, the scheme in any case and spaces before the key, as
 * HTTP reads an auth scheme (RFC 9110). Messages never repeat the key.
 */
export function authenticate(header: string | undefined): Authentication {
  if (!header)
    return { ok: false, message: 'Missing API key: send Authorization: Bearer <API_KEY>.' };
  const match = /^Bearer +([^\s]+)$/i.exec(header.trim());
  const key = match?.[1];
  if (!key?.startsWith(API_KEY_PREFIX)) {
    return { ok: false, message: 'Malformed API key: send Authorization: Bearer <API_KEY>.' };
  }
  const record = apiKeys.get(key);
  if (!record) return { ok: false, message: 'Invalid API key.' };
  if (record.status === 'revoked') return { ok: false, message: 'This API key was revoked.' };
  if (record.status === 'expired') return { ok: false, message: 'This API key has expired.' };
  return { ok: true, apiKey: key, organisationId: record.organisationId };
}
