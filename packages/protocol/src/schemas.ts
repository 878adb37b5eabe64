/**
 * zod schemas of the service's resources that concern form sessions (docs/contract.md), for the
 * server side (sandbox and middleware). Fields marked R in the contract are required here; the
 * rest are optional. In the service's resources unknown extra fields are stripped, not refused:
 * the service may add fields. What crosses to the browser (the embedded form message, the
 * middleware's 200) is strict, and refuses them.
 */
import { z } from 'zod';
import { EMBED_MESSAGE_TYPE } from './embed-message.js';
import { canonicalOrigin, originOf } from './embed-origin.js';
import type { MintResponse } from './mint-exchange.js';

/**
 * A timestamp: RFC 3339 by the contract (`format: date-time` in the OpenAPI description), and
 * taken as any string, since nothing here reads one: a timestamp written in a form we did not
 * expect must not fail the list it is in.
 */
const dateTime = z.string().meta({ format: 'date-time' });

/** An embed origin in canonical form: `scheme://host[:port]`, no path, no trailing slash. */
export const EmbedOriginSchema = z
  .string()
  .refine((value) => canonicalOrigin(value) === value, 'must be a canonical origin');

/**
 * An embed origin as the service writes it, brought to the canonical form we compare in
 * (docs/contract.md#organisation-and-embed-origins): a trailing slash, an upper-case host or a
 * default port is the same origin; a path, query, fragment or credentials make it no origin.
 */
const ServiceEmbedOriginSchema = z.string().transform((value, context) => {
  const origin = originOf(value);
  if (origin === undefined) {
    context.addIssue({ code: 'custom', message: 'must be an origin, scheme://host[:port]' });
    return z.NEVER;
  }
  return origin;
});

/** The Organisation of `GET /api/v1/me`, its embed origins brought to canonical form. */
export const OrganisationSchema = z.object({
  organisationId: z.string().optional(),
  displayName: z.string().optional(),
  formsOrigin: ServiceEmbedOriginSchema.optional(),
  coreFormsOrigin: ServiceEmbedOriginSchema.optional(),
});
/** The Organisation of `GET /api/v1/me` (docs/contract.md#organisation-and-embed-origins). */
export type Organisation = z.infer<typeof OrganisationSchema>;

/**
 * The organisation's two embed origins, each in canonical form: the pages of its designer forms
 * and of its Core forms post from them (docs/contract.md#organisation-and-embed-origins).
 */
export interface EmbedOrigins {
  /** The origin of the designer forms' pages: a `frame-src` of the portal's pages. */
  formsOrigin: string;
  /** The origin of the Core forms' pages: a `frame-src` of the portal's pages too. */
  coreFormsOrigin: string;
}

/** A Client's `environment`: the contract's four values, closed. */
export const ClientEnvironmentSchema = z.enum([
  'cloudOnly',
  'onPremOnly',
  'cloudAndOnPremSeparate',
  'cloudAndOnPremSynced',
]);

/** A Client of the organisation: its Microsoft tenant, Google Workspace domains, integrations. */
export const ClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  environment: ClientEnvironmentSchema,
  microsoftTenantId: z.string(),
  microsoftDomain: z.string(),
  googleWorkspaceDomains: z.array(z.string()),
  integrationMappingIds: z.record(z.string(), z.string()),
  createdAt: dateTime,
});
/** A Client of the organisation, as `GET /api/v1/clients` lists it. */
export type Client = z.infer<typeof ClientSchema>;

/** A page of `GET /api/v1/clients`; the envelope is ours (docs/contract.md#paths-we-chose). */
export const ClientPageSchema = z.object({
  clients: z.array(ClientSchema),
  total: z.int().min(0),
  hasMore: z.boolean(),
});

/** A designer form's `authType`: the contract's five, closed (unlike `AuthTypeSchema`). */
export const KnownAuthTypeSchema = z.enum(['none', 'password', 'microsoft', 'google', 'internal']);
/** A designer form's `authType`: `none`, `password`, `microsoft`, `google` or `internal`. */
export type KnownAuthType = z.infer<typeof KnownAuthTypeSchema>;

/**
 * How the contract writes its enums' values: a lower-case letter, then letters, digits or
 * underscores, at most 64 characters. Its SessionError codes are all snake_case, its enums are
 * not (`cloudAndOnPremSynced`), so a newer `provider` or `authType` may be camelCase.
 */
const ENUM_VALUE_FORM = /^[a-z][A-Za-z0-9_]{0,63}$/;

/**
 * A value of one of the contract's enums as the middleware passes it on to the page: one it
 * names, or a newer one this release does not know, written as the contract writes its values.
 */
const OpenValueSchema = z.string().regex(ENUM_VALUE_FORM);

/**
 * A designer form's authType as the middleware reads it: one of the five, or a newer one
 * (docs/contract.md#designer-forms), which `GET /forms` passes on.
 */
export const AuthTypeSchema = OpenValueSchema;

/** A designer Form, as `GET /api/v1/forms` lists it. */
export const FormSchema = z.object({
  id: z.string(),
  name: z.string(),
  shareUrl: z.url(),
  authType: KnownAuthTypeSchema,
  /** true for microsoft, google and none; clients branch on this field, not on authType. */
  embeddable: z.boolean(),
  listedOnHomepage: z.boolean(),
  updatedAt: dateTime,
});
/** A designer Form (docs/contract.md#designer-forms). */
export type Form = z.infer<typeof FormSchema>;

/** The answer of `GET /api/v1/forms`. */
export const FormListSchema = z.object({ forms: z.array(FormSchema) });

/** A Core form's `availability`: the contract's four values, closed. */
export const AvailabilitySchema = z.enum(['disabled', 'internal', 'public', 'both']);
/** A Core form's `availability`: `disabled`, `internal`, `public` or `both`. */
export type Availability = z.infer<typeof AvailabilitySchema>;

/**
 * An item of a Core form's `clientOverrides`: one client's tenant, whether the form is enabled
 * for it, and its availability there (`null`: the form's own). The contract marks none of the
 * four R, so each may be absent: an absent `enabled` or `availability` overrides nothing, and an
 * item with no `tenantId` is no client's (docs/contract.md#core-forms).
 */
export const CoreFormClientOverrideSchema = z.object({
  tenantId: z.string().optional(),
  tenantName: z.string().optional(),
  enabled: z.boolean().optional(),
  availability: z.string().nullable().optional(),
});
/** An item of a Core form's `clientOverrides` (see `isWithdrawnForTenant`). */
export type CoreFormClientOverride = z.infer<typeof CoreFormClientOverrideSchema>;

/** A Core form, as the Core forms list holds it. */
export const CoreFormSchema = z.object({
  slug: z.string(),
  name: z.string(),
  enabled: z.boolean(),
  availability: AvailabilitySchema,
  internal: z.boolean(),
  public: z.boolean(),
  /** true exactly when `public`; a client override can still withdraw it for one client. */
  embeddable: z.boolean(),
  listedOnHomepage: z.boolean(),
  publicUrl: z.url().optional(),
  clientOverrides: z.array(CoreFormClientOverrideSchema),
});
/** A Core form (docs/contract.md#core-forms). */
export type CoreForm = z.infer<typeof CoreFormSchema>;

/** The answer of the Core forms list (docs/contract.md#paths-we-chose). */
export const CoreFormListSchema = z.object({ forms: z.array(CoreFormSchema) });

/**
 * The FormSessionRequest's `user`: `{microsoftTenantId?, clientId?, userIdentifier?}`, each field
 * optional, as the form's authType needs. An interface, not the schema's inferred type, so that
 * its fields' docs reach a partner's editor (a zod shape's comments do not reach its .d.ts); a
 * test holds the two the same.
 */
export interface FormSessionUser {
  /** The user's Microsoft tenant id: a microsoft form needs it, unless `clientId` is given. */
  microsoftTenantId?: string;
  /**
   * The organisation's client the user belongs to: instead of `microsoftTenantId`; for a form
   * that signs nobody in, the client its submission is attributed to.
   */
  clientId?: string;
  /**
   * Who the user is: their Microsoft object id or user principal name, their Google Workspace
   * address, or (for a form that signs nobody in, optional) the portal's own identifier.
   */
  userIdentifier?: string;
}

/** The schema of a FormSessionUser. */
export const FormSessionUserSchema = z.object({
  microsoftTenantId: z.string().optional(),
  clientId: z.string().optional(),
  userIdentifier: z.string().optional(),
});

/** The body of a form-session request: `{user?}`. */
export const FormSessionRequestSchema = z.object({ user: FormSessionUserSchema.optional() });
/** The body of a form-session request (docs/contract.md#form-sessions). */
export type FormSessionRequest = z.infer<typeof FormSessionRequestSchema>;

/** A FormSession's `provider`: the contract's four values, closed (unlike `ProviderSchema`). */
export const KnownProviderSchema = z.enum(['microsoft', 'google', 'portal', 'none']);

/**
 * A provider as the middleware passes it on: one of the four, or a newer one this release does
 * not know, written as the contract writes its values (docs/contract.md#form-sessions).
 */
export const ProviderSchema = OpenValueSchema;

/** The service's 200 answer of a form-session request: `{embedUrl, provider, expiresIn, ...}`. */
export const FormSessionSchema = z.object({
  embedUrl: z.url(),
  provider: KnownProviderSchema,
  expiresIn: z.int().min(0),
  formSessionHandle: z.string().optional(),
});
/** A FormSession (docs/contract.md#form-sessions). */
export type FormSession = z.infer<typeof FormSessionSchema>;

/** `{error: {code, message, retryable}}`. `code` is any string: new codes appear between releases. */
export const SessionErrorBodySchema = z.object({
  error: z.object({ code: z.string().min(1), message: z.string(), retryable: z.boolean() }),
});

/** The plain error shape of every other endpoint: `{error: string}`. */
export const PlainErrorBodySchema = z.object({ error: z.string() });

/** The embedded form message, exactly `{type: 'service:form-session', state}`, as zod reads it. */
export const EmbedMessageSchema = z.strictObject({
  type: z.literal(EMBED_MESSAGE_TYPE),
  state: z.enum(['error', 'expired']),
});

/** The middleware's 200: `provider` as the service named it, one this release may not know. */
export const MintResponseSchema = z.strictObject({
  embedUrl: z.url(),
  embedOrigin: EmbedOriginSchema,
  provider: ProviderSchema,
  expiresIn: z.int().min(0),
}) satisfies z.ZodType<MintResponse>;
