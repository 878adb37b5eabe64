export * from './browser.js';
export { isPublicAvailability, isWithdrawnForTenant } from './core-form-rules.js';
export { formRefRefusal } from './form-ref-refusal.js';
export { isLoopbackHostname } from './loopback.js';
export {
  AuthTypeSchema,
  type Availability,
  AvailabilitySchema,
  type Client,
  ClientEnvironmentSchema,
  ClientPageSchema,
  ClientSchema,
  type CoreForm,
  type CoreFormClientOverride,
  CoreFormClientOverrideSchema,
  CoreFormListSchema,
  CoreFormSchema,
  EmbedMessageSchema,
  EmbedOriginSchema,
  type EmbedOrigins,
  type Form,
  FormListSchema,
  FormSchema,
  type FormSession,
  type FormSessionRequest,
  FormSessionRequestSchema,
  FormSessionSchema,
  type FormSessionUser,
  FormSessionUserSchema,
  type KnownAuthType,
  KnownAuthTypeSchema,
  KnownProviderSchema,
  MintResponseSchema,
  type Organisation,
  OrganisationSchema,
  PlainErrorBodySchema,
  ProviderSchema,
  SessionErrorBodySchema,
} from './schemas.js';
export { defaultServicePaths, expandPath, type ServicePaths } from './service-paths.js';
export { ELEMENT_SENTENCE_KEYS, isNewSessionErrorCode } from './session-error-codes.js';
