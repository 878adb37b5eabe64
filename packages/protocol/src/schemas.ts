/**
 * zod schemas of the service's resources that concern form sessions (docs/contract.md), for the
 * server side (sandbox and middleware). Fields marked R in the contract are required here; the
 * rest are optional. Unknown extra fields are stripped, not refused: the service may add fields.
 */
import { z } from 'zod';
import { EMBED_MESSAGE_TYPE } from './embed-message.js';
import { canonicalOrigin, originOf } from './embed-origin.js';
import type { MintResponse } from './mint-exchange.js';
import { CONTRACT_VALUE_FORM } from './session-error-codes.js';

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

export const OrganisationSchema = z.object({
  organisationId: z.string().optional(),
  displayName: z.string().optional(),
  formsOrigin: ServiceEmbedOriginSchema.optional(),
  coreFormsOrigin: ServiceEmbedOriginSchema.optional(),
});
export type Organisation = z.infer<typeof OrganisationSchema>;

export const ClientEnvironmentSchema = z.enum([
  'cloudOnly',
  'onPremOnly',
  'cloudAndOnPremSeparate',
  'cloudAndOnPremSynced',
]);

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
export type Client = z.infer<typeof ClientSchema>;

/** A page of `GET /api/v1/clients`; the envelope is ours (docs/contract.md#paths-we-chose). */
export const ClientPageSchema = z.object({
  clients: z.array(ClientSchema),
  total: z.int().min(0),
  hasMore: z.boolean(),
});

export const AuthTypeSchema = z.enum(['none', 'password', 'microsoft', 'google', 'internal']);
export type AuthType = z.infer<typeof AuthTypeSchema>;

/**
 * A value of one of the contract's enums as the middleware passes it on to the page: one it
 * names, or a newer one this release does not know, written as the contract writes its values.
 */
const OpenValueSchema = z.string().regex(CONTRACT_VALUE_FORM);

/**
 * A designer form's authType as the middleware reads it: one of the five, or a newer one
 * (docs/contract.md#designer-forms), which `GET /forms` passes on.
 */
export const OpenAuthTypeSchema = OpenValueSchema;

export const FormSchema = z.object({
  id: z.string(),
  name: z.string(),
  shareUrl: z.url(),
  authType: AuthTypeSchema,
  /** true for microsoft, google and none; clients branch on this field, not on authType. */
  embeddable: z.boolean(),
  listedOnHomepage: z.boolean(),
  updatedAt: dateTime,
});
export type Form = z.infer<typeof FormSchema>;

/** The answer of `GET /api/v1/forms`. */
export const FormListSchema = z.object({ forms: z.array(FormSchema) });

export const AvailabilitySchema = z.enum(['disabled', 'internal', 'public', 'both']);
export type Availability = z.infer<typeof AvailabilitySchema>;

export const CoreFormClientOverrideSchema = z.object({
  tenantId: z.string(),
  tenantName: z.string(),
  enabled: z.boolean(),
  availability: z.string().nullable(),
});
export type CoreFormClientOverride = z.infer<typeof CoreFormClientOverrideSchema>;

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
export type CoreForm = z.infer<typeof CoreFormSchema>;

/** The answer of the Core forms list (docs/contract.md#paths-we-chose). */
export const CoreFormListSchema = z.object({ forms: z.array(CoreFormSchema) });

export const FormSessionUserSchema = z.object({
  microsoftTenantId: z.string().optional(),
  clientId: z.string().optional(),
  userIdentifier: z.string().optional(),
});
export type FormSessionUser = z.infer<typeof FormSessionUserSchema>;

export const FormSessionRequestSchema = z.object({ user: FormSessionUserSchema.optional() });
export type FormSessionRequest = z.infer<typeof FormSessionRequestSchema>;

export const ProviderSchema = z.enum(['microsoft', 'google', 'portal', 'none']);

/**
 * A provider as the middleware passes it on: one of the four, or a newer one this release does
 * not know, written as the contract writes its values (docs/contract.md#form-sessions).
 */
export const OpenProviderSchema = OpenValueSchema;

export const FormSessionSchema = z.object({
  embedUrl: z.url(),
  provider: ProviderSchema,
  expiresIn: z.int().min(0),
  formSessionHandle: z.string().optional(),
});
export type FormSession = z.infer<typeof FormSessionSchema>;

/** `{error: {code, message, retryable}}`. `code` is any string: new codes appear between releases. */
export const SessionErrorBodySchema = z.object({
  error: z.object({ code: z.string().min(1), message: z.string(), retryable: z.boolean() }),
});

/** The plain error shape of every other endpoint: `{error: string}`. */
export const PlainErrorBodySchema = z.object({ error: z.string() });

export const EmbedMessageSchema = z.strictObject({
  type: z.literal(EMBED_MESSAGE_TYPE),
  state: z.enum(['error', 'expired']),
});

/** The middleware's 200: `provider` as the service named it, one this release may not know. */
export const MintResponseSchema = z.strictObject({
  embedUrl: z.url(),
  embedOrigin: EmbedOriginSchema,
  provider: OpenProviderSchema,
  expiresIn: z.int().min(0),
}) satisfies z.ZodType<MintResponse>;
