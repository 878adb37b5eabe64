import {
  FormSessionError,
  type FormTarget,
  isEmbedMessage,
  isOnEmbedOrigin,
  type MintResponse,
  mintPath,
} from '@form-embed/protocol/browser';
import { type PropertyValues, ReactiveElement } from '@lit/reactive-element';
import { FormEmbedErrorEvent, FormEmbedRemintEvent, FormEmbedSessionEvent } from './events.js';
import { failureMessage, messages } from './messages.js';
import { mintSession, sessionError } from './mint-session.js';
import {
  type Clock,
  FRESHNESS_MARGIN_S,
  MAX_ATTEMPTS,
  REMINT_BOUNDS,
  retryDelay,
  systemClock,
} from './retry-policy.js';
import { styles } from './styles.js';

/** Where the element is in its lifecycle; reflected as the read-only `state` attribute. */
export type FormEmbedState = 'idle' | 'minting' | 'framed' | 'waiting' | 'failed';

/** Replaces the transport to the middleware; reject with a FormSessionError to report a SessionError. */
export type FetchSession = (
  target: FormTarget,
  options: { signal: AbortSignal },
) => Promise<MintResponse>;

/**
 * Frames one of the service's forms, signed in as the portal's user: it mints a form session
 * through the portal's middleware at the moment of framing, frames the embedUrl only on its
 * embed origin, and remints when the framed page says the handle or session lapsed.
 *
 * @tagname form-embed
 *
 * @attr {string} form-id - The designer form to frame. Set exactly one of `form-id` and `core-slug`.
 * @attr {string} core-slug - The Core form to frame. Set exactly one of `form-id` and `core-slug`.
 * @attr {'idle' | 'minting' | 'framed' | 'waiting' | 'failed'} state - Read-only, reflects the
 * lifecycle: `waiting` means a retry is scheduled or paused while offline.
 *
 * @fires {FormEmbedSessionEvent} form-embed-session - A session was framed: `provider`,
 * `expiresIn`, `embedOrigin`, `attempt`.
 * @fires {FormEmbedRemintEvent} form-embed-remint - Cancelable, before a remint the framed page
 * asked for: `reason` is `expired` or `error`.
 * @fires {FormEmbedErrorEvent} form-embed-error - A mint failed: `code`, `status`, `retryable`,
 * `retryAfter`, `willRetry`.
 *
 * @slot loading - Replaces the built-in status while minting or waiting to retry.
 * @slot error - Replaces the built-in failure message and its Try again button.
 *
 * @csspart frame - The iframe that holds the form.
 * @csspart status - The status area, a polite live region.
 *
 * @cssproperty [--form-embed-height=600px] - The height of the element.
 */
export class FormEmbedElement extends ReactiveElement {
  static override styles = styles;

  static override properties = {
    formId: { attribute: 'form-id' },
    coreSlug: { attribute: 'core-slug' },
    endpoint: {},
    loading: {},
    frameTitle: { attribute: 'frame-title' },
  };

  /** Registers the element as `tag` unless that tag is taken. Defaults to `form-embed`. */
  static define(tag = 'form-embed', registry = customElements) {
    // biome-ignore lint/complexity/noThisInStatic: a subclass registers itself, not this class.
    if (!registry.get(tag)) registry.define(tag, this);
    // biome-ignore lint/complexity/noThisInStatic: as above.
    return this;
  }

  /** The designer form to frame (`form-id`). */
  formId?: string;
  /** The Core form to frame (`core-slug`). */
  coreSlug?: string;
  /** The path where the portal mounts the middleware. Defaults to `/form-sessions`. */
  endpoint = '/form-sessions';
  /** `eager` mints on connect; `lazy` mints when the element nears the viewport. Defaults to `eager`. */
  loading: 'eager' | 'lazy' = 'eager';
  /** The iframe's accessible name (`frame-title`). Defaults to `Embedded form`. */
  frameTitle = 'Embedded form';
  /** Replaces the transport to the middleware, like Stripe's `fetchClientSecret`. */
  fetchSession?: FetchSession;
  /** Merged into the default transport's request, e.g. `{headers: {'X-CSRF-Token': token}}`. */
  requestInit?: RequestInit;
  /** The time source for retries and the remint bound; replaceable in tests. */
  clock: Clock = systemClock;

  #state: FormEmbedState = 'idle';
  #message = '';
  #frame?: HTMLIFrameElement | undefined;
  #status?: HTMLDivElement;
  #embedOrigin = '';
  #abort?: AbortController | undefined;
  #timer?: unknown;
  #observer?: IntersectionObserver | undefined;
  #offline = false;
  #refocus = false;
  #attempt = 0;
  #remints: number[] = [];
  #started?: string;

  /** Where the element is in its lifecycle. */
  get state(): FormEmbedState {
    return this.#state;
  }

  /** Mints a fresh session now and frames it, whatever the current state. */
  remint() {
    this.#restart();
  }

  override connectedCallback() {
    super.connectedCallback();
    addEventListener('message', this.#onMessage);
    addEventListener('online', this.#onOnline);
    this.#restart(true);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener('message', this.#onMessage);
    removeEventListener('online', this.#onOnline);
    this.#stop();
    this.#refocus = false;
    this.#set('idle');
  }

  protected override willUpdate(_changed: PropertyValues) {
    if (this.isConnected && this.#started !== this.#key()) this.#restart(true);
  }

  protected override update(changed: PropertyValues) {
    super.update(changed);
    if (this.#frame) this.#frame.title = this.frameTitle;
  }

  // An iframe and a status line need no template engine: leaving lit-html out keeps the bundle
  // in budget. The status markup holds only this element's own fixed messages, never input.
  #render() {
    const root = this.renderRoot;
    const frame = this.#frame;
    const message = this.#message;
    for (const old of root.querySelectorAll('iframe')) if (old !== frame) old.remove();
    if (frame && !frame.isConnected) root.prepend(frame);
    this.#status ??= root.appendChild(
      Object.assign(document.createElement('div'), {
        role: 'status',
        ariaLive: 'polite',
        onclick: (event: Event) =>
          (event.target as Element).localName === 'button' && this.remint(),
      }),
    );
    this.#status.setAttribute('part', 'status');
    this.#status.innerHTML =
      this.#state === 'failed'
        ? `<slot name=error>${message}<button>Try again</button></slot>`
        : message && `<slot name=loading>${message}</slot>`;
  }

  #key() {
    return `${this.formId}\n${this.coreSlug}\n${this.endpoint}`;
  }

  #target(): FormTarget | undefined {
    const { formId, coreSlug } = this;
    if (formId && !coreSlug) return { kind: 'form', formId };
    if (coreSlug && !formId) return { kind: 'coreForm', slug: coreSlug };
  }

  /** Starts over; `fresh` (connect, a new form) also honours `loading` and forgets past remints. */
  #restart(fresh?: boolean) {
    // A detached element never mints, even when a remint listener is what detached it.
    if (!this.isConnected) return;
    this.#stop();
    this.#started = this.#key();
    this.#attempt = 0;
    if (fresh) this.#remints = [];
    if (!this.#target()) {
      this.#fail(sessionError('invalid_request', false));
    } else if (fresh && this.loading === 'lazy' && self.IntersectionObserver) {
      this.#set('idle');
      this.#observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((entry) => entry.isIntersecting)) {
            this.#stop();
            this.#mint();
          }
        },
        { rootMargin: '200px' },
      );
      this.#observer.observe(this);
    } else {
      this.#mint();
    }
  }

  /** Aborts the mint in flight, clears the timer and the observer, and drops the frame. */
  #stop() {
    this.#abort?.abort();
    this.#abort = undefined;
    this.clock.clearTimeout(this.#timer);
    this.#observer?.disconnect();
    this.#offline = false;
    this.#refocus ||= !!this.#frame && this.shadowRoot?.activeElement === this.#frame;
    this.#frame = undefined;
  }

  #set(state: FormEmbedState, message = '') {
    this.#state = state;
    this.#message = message;
    this.setAttribute('state', state);
    this.ariaBusy = state === 'minting' ? 'true' : null;
    this.#render();
  }

  async #mint() {
    const abort = new AbortController();
    const { clock, endpoint, requestInit } = this;
    const started = clock.now();
    const attempt = ++this.#attempt;
    this.#abort = abort;
    this.#set('minting', messages.loading);
    try {
      const session = await (
        this.fetchSession ??
        ((target, { signal }) =>
          mintSession(endpoint.replace(/\/$/, '') + mintPath(target), requestInit, signal))
      )(this.#target() as FormTarget, { signal: abort.signal });
      if (abort !== this.#abort) return;
      const { embedUrl, embedOrigin, expiresIn } = session ?? {};
      if (typeof embedUrl !== 'string' || typeof embedOrigin !== 'string' || !(expiresIn >= 0)) {
        throw sessionError('internal_error', true);
      }
      if (!isOnEmbedOrigin(embedUrl, embedOrigin)) throw sessionError('unknown', false);
      // A handle is single use and short-lived: never frame one that may lapse while loading.
      if (expiresIn > 0 && clock.now() - started > (expiresIn - FRESHNESS_MARGIN_S) * 1000) {
        if (this.#mayRemint()) this.#restart();
        return;
      }
      const frame = Object.assign(document.createElement('iframe'), {
        title: this.frameTitle,
        referrerPolicy: 'origin',
        src: embedUrl,
      });
      frame.setAttribute('part', 'frame');
      this.#frame = frame;
      this.#embedOrigin = embedOrigin;
      this.#set('framed');
      this.dispatchEvent(
        new FormEmbedSessionEvent({ provider: session.provider, expiresIn, embedOrigin, attempt }),
      );
      if (this.#refocus) {
        this.#refocus = false;
        await this.updateComplete;
        frame.focus();
      }
    } catch (error) {
      if (abort === this.#abort) {
        this.#fail(error instanceof FormSessionError ? error : sessionError('unavailable', true));
      }
    }
  }

  #fail(error: FormSessionError) {
    const { clock } = this;
    const willRetry = error.retryable && this.#attempt < MAX_ATTEMPTS;
    if (willRetry) {
      this.#set('waiting', messages.retrying);
      const due = clock.now() + retryDelay(this.#attempt, error.retryAfter, clock.random());
      const wake = () => {
        // A timer may fire a little early; a retry never comes before Retry-After.
        if (clock.now() < due) {
          this.#timer = clock.setTimeout(wake, due - clock.now());
          return;
        }
        // Offline: wait for the `online` event instead of spending an attempt.
        this.#offline = !navigator.onLine;
        if (this.#offline) this.#set('waiting', messages.offline);
        else this.#mint();
      };
      this.#timer = clock.setTimeout(wake, due - clock.now());
    } else {
      this.#set('failed', failureMessage(error.code));
    }
    const { code, status, retryable, retryAfter } = error;
    this.dispatchEvent(new FormEmbedErrorEvent({ code, status, retryable, retryAfter, willRetry }));
  }

  #onOnline = () => {
    if (this.#offline) {
      this.#offline = false;
      this.#mint();
    }
  };

  /** True, and counted, when one more automatic remint stays within the bound; else fails. */
  #mayRemint() {
    const now = this.clock.now();
    const within = (windowMs: number) => this.#remints.filter((at) => now - at < windowMs).length;
    if (REMINT_BOUNDS.every(([limit, windowMs]) => within(windowMs) < limit)) {
      return this.#remints.push(now);
    }
    this.#stop();
    this.#set('failed', messages.storm);
  }

  #onMessage = (event: MessageEvent) => {
    const frame = this.#frame;
    if (
      this.#state === 'framed' &&
      event.source &&
      event.source === frame?.contentWindow &&
      event.origin === this.#embedOrigin &&
      isEmbedMessage(event.data) &&
      this.#mayRemint() &&
      this.dispatchEvent(new FormEmbedRemintEvent(event.data.state))
    ) {
      this.#restart();
    }
  };
}
