/** The message a framed form page posts to its parent (docs/contract.md#embedded-form-message). */
export const EMBED_MESSAGE_TYPE = 'service:form-session';

/** The states a framed page reports, by name: `EmbedSessionState.EXPIRED` is `'expired'`. */
export const EmbedSessionState = { ERROR: 'error', EXPIRED: 'expired' } as const;
/**
 * What the framed page reports: `error` (the handle could not be redeemed) or `expired` (the
 * signed-in session lapsed). Either asks the embedding page to mint a fresh session.
 */
export type EmbedSessionState = (typeof EmbedSessionState)[keyof typeof EmbedSessionState];

/** `{type: 'service:form-session', state}`, what a framed page posts (see `isEmbedMessage`). */
export interface EmbedMessage {
  type: typeof EMBED_MESSAGE_TYPE;
  state: EmbedSessionState;
}

/**
 * True only for exactly `{type: 'service:form-session', state: 'error' | 'expired'}`: a plain
 * object with those two own fields and no other. Anything else is not the service's message.
 */
export function isEmbedMessage(data: unknown): data is EmbedMessage {
  // A posted message is a structured clone made in the receiving window's realm, which is not
  // this module's once the element is moved into another window (Picture-in-Picture): a plain
  // object is one whose prototype (some realm's Object.prototype) has none. With two own keys,
  // `type` and `state` read below are then those two. Only a script can make an object that passes
  // otherwise (a prototype of its own with none above it), and a page's script can remint anyway.
  // Read on `data` itself: an alias is one more name the minifier keeps in the element's bundle.
  return (
    !Object.getPrototypeOf(Object.getPrototypeOf(data ?? 0) ?? 0) &&
    Reflect.ownKeys(data as EmbedMessage).length === 2 &&
    (data as EmbedMessage).type === EMBED_MESSAGE_TYPE &&
    ((data as EmbedMessage).state === 'error' || (data as EmbedMessage).state === 'expired')
  );
}
