/**
 * Who gets a form session (docs/contract.md#form-sessions, #session-errors): pure decisions over
 * the fixtures and the organisation's connection state; no I/O.
 */
import { type FormSessionUser, type FormTarget, isWithdrawnForTenant } from '@form-embed/protocol';
import { clientsOf, coreForms, directoryUsers, formsOf } from './fixtures.js';
import { checkMicrosoftUser, resolveMicrosoftClient } from './microsoft-rules.js';
import { isPublicCoreForm } from './resources.js';
import {
  type Decision,
  EMAIL,
  organisationClient,
  type RuleContext,
  refuse,
} from './session-decision.js';

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
  const form = formsOf(context.organisationId).find((f) => f.id === formId);
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
  if (!isPublicCoreForm(form)) {
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

function decideGoogle(context: RuleContext, user: FormSessionUser | undefined): Decision {
  const email = user?.userIdentifier;
  if (!email)
    return refuse('invalid_request', 'google forms need user.userIdentifier (a Workspace email).');
  // The tenant is ignored on a google form, the client is not: it must be the organisation's.
  if (user?.clientId && !organisationClient(context, user.clientId)) {
    return refuse('client_not_found', `No client ${user.clientId} in this organisation.`);
  }
  if (!EMAIL.test(email))
    return refuse('invalid_user_identifier', 'Google rejected the userIdentifier.');
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const client = clientsOf(context.organisationId).find((c) =>
    c.googleWorkspaceDomains.includes(domain),
  );
  if (!client) {
    return refuse(
      'tenant_not_connected',
      'The workspace domain is not a client this organisation manages.',
    );
  }
  // The contract has clientId name "the client the user belongs to": one whose workspace is not
  // the email's is refused here, rather than passing here and failing on the service.
  if (user?.clientId && user.clientId !== client.id) {
    return refuse('user_not_found', `The user is not in client ${user.clientId}'s workspace.`);
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
