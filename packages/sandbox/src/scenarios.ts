/**
 * One recipe per SessionError code (and one for a code the protocol does not know yet): the
 * request that makes the sandbox answer it, like a payment provider's test cards.
 */
import {
  type FormSessionUser,
  type FormTarget,
  isKnownSessionErrorCode,
  type SessionErrorCode,
  SessionErrorCodes,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol';
import type { SandboxControl } from './control.js';
import { type FixtureKeyName, fixtureIds } from './fixtures.js';

/**
 * How to make the sandbox answer one code: the form, user and key to mint with, and any `setup`
 * of the sandbox first; `status` and `retryable` are the contract's for `code`.
 */
export interface Scenario {
  code: SessionErrorCode;
  status: number;
  retryable: boolean;
  description: string;
  target: FormTarget;
  user?: FormSessionUser;
  /** Which fixture key sends the request. Defaults to `primary`. */
  apiKey?: FixtureKeyName;
  /** Puts the sandbox in the state that produces the code (org state, a limit, or a fault). */
  setup?: (control: SandboxControl) => void | Promise<void>;
}

const { forms, coreForms, clients, tenants, users } = fixtureIds;
const microsoftForm: FormTarget = { kind: 'form', formId: forms.microsoft };
const adele: FormSessionUser = { microsoftTenantId: tenants.contoso, userIdentifier: users.adele };

/** A scenario before its status and retryable flag are read from the contract's table. */
type Recipe = Omit<Scenario, 'status' | 'retryable'> &
  Partial<Pick<Scenario, 'status' | 'retryable'>>;

const recipes: readonly Recipe[] = [
  {
    code: 'invalid_request',
    description: 'A microsoft form requested without a userIdentifier.',
    target: microsoftForm,
    user: { clientId: clients.contoso },
  },
  {
    code: 'invalid_api_key',
    description: 'A revoked API key (a missing, malformed or expired one answers the same).',
    target: microsoftForm,
    user: adele,
    apiKey: 'revoked',
  },
  {
    code: 'rate_limited',
    description:
      "The key's mint bucket is empty (exhaustRateLimit keeps it so for a minute); Retry-After says when to retry.",
    target: microsoftForm,
    user: adele,
    setup: (control) => control.exhaustRateLimit('mints'),
  },
  {
    code: 'form_not_found',
    description: "Another organisation's form (a missing form answers the same).",
    target: { kind: 'form', formId: forms.otherOrg },
    user: adele,
  },
  {
    code: 'form_unpublished',
    description: 'An internal-only Core form (a disabled one answers the same).',
    target: { kind: 'coreForm', slug: coreForms.leaver },
    user: adele,
  },
  {
    code: 'form_session_unsupported',
    description: 'A password form (an internal form answers the same).',
    target: { kind: 'form', formId: forms.password },
    user: adele,
  },
  {
    code: 'client_not_found',
    description: "A clientId of another organisation's client.",
    target: microsoftForm,
    user: { clientId: clients.otherOrg, userIdentifier: users.adele },
  },
  {
    code: 'client_not_connected',
    description: 'A client with no Microsoft tenant.',
    target: microsoftForm,
    user: { clientId: clients.northwind, userIdentifier: users.sam },
  },
  {
    code: 'client_not_entitled',
    description: "A Core form that Fabrikam's client override makes internal-only.",
    target: { kind: 'coreForm', slug: coreForms.mailboxAccess },
    user: { clientId: clients.fabrikam, userIdentifier: users.megan },
  },
  {
    code: 'tenant_not_connected',
    description: 'A tenant no client of this organisation has.',
    target: microsoftForm,
    user: { microsoftTenantId: tenants.unknown, userIdentifier: users.unknownDomain },
  },
  {
    code: 'user_not_found',
    description: "A user who is not in Contoso's directory.",
    target: microsoftForm,
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.ghost },
  },
  {
    code: 'invalid_user_identifier',
    description: 'A userIdentifier that is neither a user principal name nor an object id.',
    target: microsoftForm,
    user: { microsoftTenantId: tenants.contoso, userIdentifier: users.malformed },
  },
  {
    code: 'microsoft_permission_denied',
    description: "A Litware user: the organisation's connection may not read Litware's users.",
    target: microsoftForm,
    user: { clientId: clients.litware, userIdentifier: users.lee },
  },
  {
    code: 'microsoft_unavailable',
    description: 'Microsoft throttles the organisation (Retry-After: 30).',
    target: microsoftForm,
    user: adele,
    setup: (control) => control.setMicrosoftConnection({ state: 'throttled', retryAfter: 30 }),
  },
  {
    code: 'microsoft_connection_failed',
    description: "The organisation's Microsoft connection is broken.",
    target: microsoftForm,
    user: adele,
    setup: (control) => control.setMicrosoftConnection({ state: 'broken' }),
  },
  ...(['internal_error', 'forbidden', 'not_found', 'unavailable'] as const).map((code) => ({
    code,
    description: `An injected fault on the next form-session request.`,
    target: microsoftForm,
    user: adele,
    setup: (control: SandboxControl) => control.fail({ kind: 'error', code, scope: 'session' }),
  })),
  {
    code: 'unknown',
    description:
      'An injected catch-all refusal; the table gives it no status, the sandbox uses 400.',
    target: microsoftForm,
    user: adele,
    setup: (control) => control.fail({ kind: 'error', code: 'unknown', scope: 'session' }),
  },
  {
    code: 'seat_limit_reached',
    status: 403,
    retryable: false,
    description:
      'A code this release of the protocol does not know yet: the middleware passes it on, the element words it as unknown.',
    target: microsoftForm,
    user: adele,
    setup: (control) =>
      control.fail({ kind: 'error', code: 'seat_limit_reached', status: 403, scope: 'session' }),
  },
];

/** Status and retryable come from `SessionErrorCodes` (docs/contract.md#session-errors). */
function withTableFacts(recipe: Recipe): Scenario {
  if (!isKnownSessionErrorCode(recipe.code)) {
    if (recipe.status === undefined || recipe.retryable === undefined) {
      throw new Error(`scenario ${recipe.code} is not in the table: give its status and retryable`);
    }
    return { ...recipe, status: recipe.status, retryable: recipe.retryable };
  }
  const row = SessionErrorCodes[recipe.code];
  return { ...recipe, status: row.status ?? UNKNOWN_CODE_STATUS, retryable: row.retryable };
}

/** One `Scenario` per SessionError code, and one for a code the protocol does not know yet. */
export const scenarios: readonly Scenario[] = recipes.map(withTableFacts);
