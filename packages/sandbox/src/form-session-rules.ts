/**
 * Who gets a form session (partner-api.md: FormSessionRequest, FormSession, SessionError).
 * Pure decisions over the fixtures and the organisation's connection state; no I/O.
 */
import {
  FormSessionRequestSchema,
  type FormSessionUser,
  type FormTarget,
  isPublicAvailability,
  isWithdrawnForTenant,
  type Provider,
  type SessionErrorCode,
} from '@form-embed/protocol';
import {
  type ClientRecord,
  clients,
  coreForms,
  directoryUsers,
  forms,
  otherOrganisationForms,
} from './fixtures.js';
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

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function refuse(code: SessionErrorCode, message: string, retryAfter?: number): Refusal {
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

export function decideFormSession(
  context: RuleContext,
  target: FormTarget,
  user: FormSessionUser | undefined,
): Decision {
  return target.kind === 'form'
    ? decideDesignerForm(context, target.formId, user)
    : decideCoreForm(context, target.slug, user);
}

function decideDesignerForm(
  context: RuleContext,
  formId: string,
  user: FormSessionUser | undefined,
): Decision {
  const form = [...forms, ...otherOrganisationForms].find(
    (f) => f.id === formId && f.organisationId === context.organisationId,
  );
  if (!form) return refuse('form_not_found', `No form ${formId} in this organisation.`);
  switch (form.authType) {
    case 'password':
    case 'internal':
      return refuse(
        'form_session_unsupported',
        `Form ${formId} has authType ${form.authType}, which cannot take a form session.`,
      );
    case 'microsoft': {
      const client = resolveMicrosoftClient(context, user, 'microsoft forms');
      if (!client.ok) return client;
      return checkMicrosoftUser(context, client.client, user?.userIdentifier ?? '');
    }
    case 'google':
      return decideGoogle(context, user);
    case 'none':
      return decideNone(context, user);
  }
}

function decideCoreForm(
  context: RuleContext,
  slug: string,
  user: FormSessionUser | undefined,
): Decision {
  const form = coreForms.find((f) => f.slug === slug);
  if (!form) return refuse('form_not_found', `No Core form ${slug}.`);
  if (!form.enabled || !isPublicAvailability(form.availability)) {
    return refuse('form_unpublished', `Core form ${slug} is not available publicly.`);
  }
  const resolved = resolveMicrosoftClient(context, user, 'Core forms');
  if (!resolved.ok) return resolved;
  if (isWithdrawnForTenant(form, resolved.client.microsoftTenantId)) {
    return refuse(
      'client_not_entitled',
      `Client ${resolved.client.id}'s override makes Core form ${slug} unavailable publicly.`,
    );
  }
  return checkMicrosoftUser(context, resolved.client, user?.userIdentifier ?? '');
}

function resolveMicrosoftClient(
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
  const client = clients.find(
    (c) =>
      c.organisationId === context.organisationId &&
      c.microsoftTenantId.toLowerCase() === tenantId.toLowerCase(),
  );
  if (!client) {
    return refuse('tenant_not_connected', 'The tenant is not a client this organisation manages.');
  }
  return { ok: true, client };
}

function checkMicrosoftUser(
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

function decideGoogle(context: RuleContext, user: FormSessionUser | undefined): Decision {
  const email = user?.userIdentifier;
  if (!email)
    return refuse('invalid_request', 'google forms need user.userIdentifier (a Workspace email).');
  if (!EMAIL.test(email))
    return refuse('invalid_user_identifier', 'Google rejected the userIdentifier.');
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const client = clients.find(
    (c) => c.organisationId === context.organisationId && c.googleWorkspaceDomains.includes(domain),
  );
  if (!client) {
    return refuse(
      'tenant_not_connected',
      'The workspace domain is not a client this organisation manages.',
    );
  }
  const found = directoryUsers.find(
    (u) =>
      u.directory === 'google' &&
      u.clientId === client.id &&
      u.identifier.toLowerCase() === email.toLowerCase(),
  );
  if (!found)
    return refuse('user_not_found', `The user is not in client ${client.id}'s workspace.`);
  return { ok: true, provider: 'google', handle: true, identifier: found.identifier };
}

function decideNone(context: RuleContext, user: FormSessionUser | undefined): Decision {
  if (!user || (!user.clientId && !user.userIdentifier && !user.microsoftTenantId)) {
    return { ok: true, provider: 'none', handle: false, identifier: undefined };
  }
  if (user.clientId && !organisationClient(context, user.clientId)) {
    return refuse('client_not_found', `No client ${user.clientId} in this organisation.`);
  }
  return {
    ok: true,
    provider: 'portal',
    handle: true,
    identifier: user.userIdentifier || undefined,
  };
}

function organisationClient(context: RuleContext, clientId: string): ClientRecord | undefined {
  return clients.find((c) => c.id === clientId && c.organisationId === context.organisationId);
}
