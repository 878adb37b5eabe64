// The browser entry: no zod and nothing else heavy, for `<form-embed>` and its size budget.
export {
  EMBED_MESSAGE_TYPE,
  type EmbedMessage,
  EmbedSessionState,
  isEmbedMessage,
} from './embed-message.js';
export { canonicalOrigin, isOnEmbedOrigin, originOf } from './embed-origin.js';
export { FORM_REF_MAX_LENGTH, isDotSegment, isValidFormRef } from './form-ref.js';
export {
  CATALOGUE_PATH,
  type Catalogue,
  type CatalogueEntry,
  type FormTarget,
  type MintResponse,
  mintPath,
  type Provider,
} from './mint-exchange.js';
export { isPortalErrorCode, type PortalErrorCode, PortalErrorCodes } from './portal-codes.js';
export { parseRetryAfter, toImfFixdate } from './retry-after.js';
export {
  FormSessionError,
  readSessionError,
  type SessionErrorBody,
  type SessionErrorDetail,
} from './session-error.js';
export {
  isKnownSessionErrorCode,
  type KnownSessionErrorCode,
  knownSessionErrorCode,
  knownSessionErrorCodes,
  type SessionErrorCode,
  SessionErrorCodes,
  statusOfSessionErrorCode,
  UNKNOWN_CODE_STATUS,
} from './session-error-codes.js';
