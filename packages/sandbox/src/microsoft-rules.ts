/**
 * The Microsoft side of a form session (designer microsoft forms and Core forms): which client
 * the user belongs to, and whether the organisation's connection may read that user.
 */
import type { FormSessionUser } from '@form-embed/protocol';
import { type ClientRecord, clientsOf, directoryUsers } from './fixtures.js';
import {
  type Decision,
  EMAIL,
  GUID,
  organisationClient,
  type Refusal,
  type RuleContext,
  refuse,
} from './session-decision.js';

export function resolveMicrosoftClient(
  context: RuleContext,
  user: FormSessionUser | undefined,
  what: string,
): { ok: true; client: ClientRecord } | Refusal {
  if (!user?.userIdentifier || (!user.microsoftTenantId && !user.clientId)) {
    return refuse(
      'invalid_request',
      `${what} need user.userIdentifier and user.microsoftTenantId or user.clientId.`,
    );
  }
  if (user.clientId) {
    const client = organisationClient(context, user.clientId);
    if (!client)
      return refuse('client_not_found', `No client ${user.clientId} in this organisation.`);
    if (!client.microsoftTenantId) {
      return refuse('client_not_connected', `Client ${client.id} has no Microsoft tenant.`);
    }
    if (
      user.microsoftTenantId &&
      user.microsoftTenantId.toLowerCase() !== client.microsoftTenantId.toLowerCase()
    ) {
      return refuse(
        'invalid_request',
        'user.microsoftTenantId is not the tenant of user.clientId.',
      );
    }
    return { ok: true, client };
  }
  const tenantId = user.microsoftTenantId ?? '';
  if (!GUID.test(tenantId)) {
    return refuse('invalid_request', 'user.microsoftTenantId must be a tenant id (a GUID).');
  }
  const client = clientsOf(context.organisationId).find(
    (c) => c.microsoftTenantId.toLowerCase() === tenantId.toLowerCase(),
  );
  if (!client) {
    return refuse('tenant_not_connected', 'The tenant is not a client this organisation manages.');
  }
  return { ok: true, client };
}

export function checkMicrosoftUser(
  context: RuleContext,
  client: ClientRecord,
  identifier: string,
): Decision {
  const connection = context.microsoftConnection;
  if (connection.state === 'broken') {
    return refuse(
      'microsoft_connection_failed',
      "The organisation's Microsoft connection is not working; an administrator must reconnect it.",
    );
  }
  if (connection.state === 'throttled') {
    return refuse(
      'microsoft_unavailable',
      'Microsoft is throttling requests.',
      connection.retryAfter,
    );
  }
  if (!EMAIL.test(identifier) && !GUID.test(identifier)) {
    return refuse('invalid_user_identifier', 'Microsoft rejected the userIdentifier.');
  }
  if (client.directoryReadDenied) {
    return refuse(
      'microsoft_permission_denied',
      `The organisation's connection may not read users of client ${client.id}.`,
    );
  }
  const wanted = identifier.toLowerCase();
  const found = directoryUsers.find(
    (u) =>
      u.directory === 'microsoft' &&
      u.clientId === client.id &&
      (u.identifier.toLowerCase() === wanted || u.objectId?.toLowerCase() === wanted),
  );
  if (!found)
    return refuse('user_not_found', `The user is not in client ${client.id}'s directory.`);
  return { ok: true, provider: 'microsoft', handle: true, identifier: found.identifier };
}
