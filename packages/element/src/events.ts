import type { PortalErrorCode, Provider, SessionErrorCode } from '@form-embed/protocol/browser';

/** `form-embed-session`: a session was framed. */
export interface FormEmbedSessionEvent extends Event {
  /**
   * How the service signed the user in: `microsoft`, `google`, `portal` or `none`, or a provider
   * this release does not know, as the service named it.
   */
  readonly provider: Provider;
  /** Seconds the handle was redeemable for at mint; 0 when no handle was issued. */
  readonly expiresIn: number;
  /** The embed origin the framed page posts from. */
  readonly embedOrigin: string;
  /** Which mint attempt succeeded, from 1. */
  readonly attempt: number;
}

/**
 * `form-embed-remint`: the framed page asked for a remint. Cancelable: `preventDefault()` keeps
 * the current frame, counts for nothing towards the remint bound, and leaves reminting to the
 * page (`remint()`). Past the bound the element stops (`failed`) instead of reminting.
 */
export interface FormEmbedRemintEvent extends Event {
  /** The state the framed page posted. */
  readonly reason: 'expired' | 'error';
}

/** `form-embed-error`: a mint failed. */
export interface FormEmbedErrorEvent extends Event {
  /**
   * The SessionError code, the portal's `sign_in_required`, or the element's own
   * `untrusted_origin`; a code this release does not know is passed on as it is.
   */
  readonly code: SessionErrorCode | PortalErrorCode | 'untrusted_origin';
  /** HTTP status of the answer; 0 when no answer arrived or the element refused it. */
  readonly status: number;
  /** True when the same mint can succeed later. */
  readonly retryable: boolean;
  /** Seconds from `Retry-After`, when the answer carried a usable one. */
  readonly retryAfter: number | undefined;
  /** True when the element has scheduled another attempt. */
  readonly willRetry: boolean;
}

/**
 * `form-embed-notice`, before the element shows that the session timed out and the form was
 * reloaded. Cancelable: `preventDefault()` shows no notice (the page may show its own).
 */
export interface FormEmbedNoticeEvent extends Event {
  /** Why the form was reloaded. */
  readonly reason: 'expired';
}

/** Each of the element's events by its name. */
export interface FormEmbedEventMap {
  'form-embed-session': FormEmbedSessionEvent;
  'form-embed-remint': FormEmbedRemintEvent;
  'form-embed-error': FormEmbedErrorEvent;
  'form-embed-notice': FormEmbedNoticeEvent;
}

// On both maps, as Lit does, so that listeners on `document`, `window` and any element are typed.
declare global {
  interface HTMLElementEventMap extends FormEmbedEventMap {}
  interface GlobalEventHandlersEventMap extends FormEmbedEventMap {}
}

/** Fires one of the element's events, with its fields, bubbling and composed; false if canceled. */
export function fire<K extends keyof FormEmbedEventMap>(
  target: EventTarget,
  type: K,
  fields: Omit<FormEmbedEventMap[K], keyof Event>,
  cancelable?: boolean,
) {
  return target.dispatchEvent(
    Object.assign(new Event(type, { bubbles: true, composed: true, cancelable }), fields),
  );
}
