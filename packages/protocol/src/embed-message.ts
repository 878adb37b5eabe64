/** The message a framed form page posts to its parent (partner-api.md, "Embedded form message"). */
export const EMBED_MESSAGE_TYPE = 'service:form-session';

export const EmbedSessionState = { ERROR: 'error', EXPIRED: 'expired' } as const;
export type EmbedSessionState = (typeof EmbedSessionState)[keyof typeof EmbedSessionState];

export interface EmbedMessage {
  type: typeof EMBED_MESSAGE_TYPE;
  state: EmbedSessionState;
}

/**
 * True only for exactly `{type: 'service:form-session', state: 'error' | 'expired'}`: a plain
 * object with those two own fields and no other. Anything else is not the service's message.
 */
export function isEmbedMessage(data: unknown): data is EmbedMessage {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return false;
  const proto = Object.getPrototypeOf(data);
  if (proto !== Object.prototype && proto !== null) return false;
  const keys = Reflect.ownKeys(data);
  if (keys.length !== 2) return false;
  const { type, state } = data as Record<string, unknown>;
  return (
    Object.hasOwn(data, 'type') &&
    Object.hasOwn(data, 'state') &&
    type === EMBED_MESSAGE_TYPE &&
    (state === EmbedSessionState.ERROR || state === EmbedSessionState.EXPIRED)
  );
}
