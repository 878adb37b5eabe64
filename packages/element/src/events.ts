import type { Provider, SessionErrorCode } from '@form-embed/protocol/browser';

const init = { bubbles: true, composed: true };

/** Fired when a session was framed. Bubbles and is composed. */
export class FormEmbedSessionEvent extends Event {
  /** How the service signed the user in. */
  declare readonly provider: Provider;
  /** Seconds the handle was redeemable for at mint; 0 when no handle was issued. */
  declare readonly expiresIn: number;
  /** The embed origin the framed page posts from. */
  declare readonly embedOrigin: string;
  /** Which mint attempt succeeded, from 1. */
  declare readonly attempt: number;

  constructor(
    detail: Pick<FormEmbedSessionEvent, 'provider' | 'expiresIn' | 'embedOrigin' | 'attempt'>,
  ) {
    super('form-embed-session', init);
    Object.assign(this, detail);
  }
}

/**
 * Fired before a remint that the framed page asked for. Cancelable: `preventDefault()` keeps
 * the current frame and leaves reminting to the page (`remint()`). Bubbles and is composed.
 */
export class FormEmbedRemintEvent extends Event {
  constructor(
    /** The state the framed page posted. */
    readonly reason: 'expired' | 'error',
  ) {
    super('form-embed-remint', { ...init, cancelable: true });
  }
}

/** Fired when a mint failed. Bubbles and is composed. */
export class FormEmbedErrorEvent extends Event {
  /** The SessionError code; a code this release does not know is passed on as it is. */
  declare readonly code: SessionErrorCode;
  /** HTTP status of the answer; 0 when no answer arrived or the element refused it. */
  declare readonly status: number;
  /** True when the same mint can succeed later. */
  declare readonly retryable: boolean;
  /** Seconds from `Retry-After`, when the answer carried one. */
  declare readonly retryAfter: number | undefined;
  /** True when the element has scheduled another attempt. */
  declare readonly willRetry: boolean;

  constructor(
    detail: Pick<FormEmbedErrorEvent, 'code' | 'status' | 'retryable' | 'retryAfter' | 'willRetry'>,
  ) {
    super('form-embed-error', init);
    Object.assign(this, detail);
  }
}

declare global {
  interface HTMLElementEventMap {
    'form-embed-session': FormEmbedSessionEvent;
    'form-embed-remint': FormEmbedRemintEvent;
    'form-embed-error': FormEmbedErrorEvent;
  }
}
