import {
  type FormTarget,
  isEmbedMessage,
  isOnEmbedOrigin,
  type MintResponse,
  mintPath,
} from '@form-embed/protocol/browser';
import { type PropertyValues, ReactiveElement, unsafeCSS } from '@lit/reactive-element';
import { fire } from './events.js';
import { failureMessage, messages } from './messages.js';
import { failureOf, mintFailure, mintSession } from './mint-session.js';
import {
  FRESHNESS_MARGIN_S,
  MAX_ATTEMPTS,
  MAX_REMINTS,
  REMINT_WINDOW_MS,
  retryDelay,
} from './retry-policy.js';
import { styles } from './styles.js';
import { nearViewport, online, sleep } from './waits.js';

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
  static override styles = unsafeCSS(styles);

  static override properties = {
    formId: { attribute: 'form-id' },
    coreSlug: { attribute: 'core-slug' },
    endpoint: {},
    loading: {},
    frameTitle: { attribute: 'frame-title' },
  };

  /** Registers the element as `tag` unless that tag is taken. Defaults to `form-embed`. */
  static define(tag = 'form-embed') {
    // biome-ignore lint/complexity/noThisInStatic: a subclass registers itself, not this class.
    if (!customElements.get(tag)) customElements.define(tag, this);
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

  #state: FormEmbedState = 'idle';
  #status!: HTMLElement;
  /** The current run: aborting it ends its mint, its waits, its frame and the frame's listener. */
  #run?: AbortController;
  #refocus?: boolean;
  /** When the framed page's remints happened, for MAX_REMINTS; emptied by a fresh start. */
  #remints!: number[];
  /** The form and endpoint the element started on, to start afresh when they change. */
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
    this.#restart(true);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#run?.abort();
    this.#refocus = false;
    this.#set('idle');
  }

  // An iframe and a status line need no template engine: leaving lit-html out keeps the bundle
  // in budget. The status area is made once, so that it is a live region before it speaks.
  protected override createRenderRoot() {
    const root = super.createRenderRoot();
    this.#status = root.appendChild(
      Object.assign(document.createElement('div'), {
        role: 'status',
        ariaLive: 'polite',
        // Only the built-in Try again button: a page's own button in the error slot is its own.
        onclick: ({ target }: Event) =>
          target === this.#status.querySelector('button') && this.remint(),
      }),
    );
    this.#status.setAttribute('part', 'status');
    return root;
  }

  protected override willUpdate(_changed: PropertyValues) {
    // The one iframe is the current run's: a run's end removes its frame.
    const frame = this.renderRoot.querySelector('iframe');
    if (frame) frame.title = this.frameTitle;
    if (this.isConnected && this.#started !== this.#key()) this.#restart(true);
  }

  #key() {
    return `${this.formId}\n${this.coreSlug}\n${this.endpoint}`;
  }

  /** Starts over; `fresh` (connect, a new form) also honours `loading` and forgets past remints. */
  #restart(fresh?: boolean) {
    // A detached element never mints, even when a remint listener is what detached it.
    if (!this.isConnected) return;
    this.#run?.abort();
    this.#started = this.#key();
    if (fresh) this.#remints = [];
    this.#run = new AbortController();
    this.#frameSession(this.#run.signal, fresh);
  }

  #set(state: FormEmbedState, message = '') {
    this.#state = state;
    this.setAttribute('state', state);
    this.ariaBusy = state === 'minting' ? 'true' : null;
    // Only this element's own fixed messages go into the markup, never input.
    this.#status.innerHTML =
      state === 'failed'
        ? `<slot name=error>${message}<button>Try again</button></slot>`
        : message && `<slot name=loading>${message}</slot>`;
  }

  /**
   * One run: waits for the viewport if lazy, mints (retrying as the failure allows), frames the
   * session and listens to that frame. Every step ends when `signal` aborts.
   */
  async #frameSession(signal: AbortSignal, fresh?: boolean) {
    const { formId, coreSlug } = this;
    const target: FormTarget | undefined =
      formId && !coreSlug
        ? { kind: 'form', formId }
        : coreSlug && !formId
          ? { kind: 'coreForm', slug: coreSlug }
          : undefined;
    if (target && fresh && this.loading === 'lazy' && self.IntersectionObserver) {
      this.#set('idle');
      await nearViewport(this, signal);
    }
    for (let attempt = 1; ; attempt++) {
      // A wait may end in the same task as the run (an `online` listener that removes the element).
      if (signal.aborted) return;
      const started = Date.now();
      this.#set('minting', messages.loading);
      try {
        if (!target) throw mintFailure('invalid_request', false);
        const session = await (this.fetchSession
          ? this.fetchSession(target, { signal })
          : mintSession(
              this.endpoint.replace(/\/$/, '') + mintPath(target),
              this.requestInit,
              signal,
            ));
        if (signal.aborted) return;
        const { embedUrl, embedOrigin, expiresIn } = session ?? {};
        if (
          typeof embedUrl !== 'string' ||
          typeof embedOrigin !== 'string' ||
          typeof expiresIn !== 'number' ||
          !(expiresIn >= 0)
        ) {
          throw mintFailure('internal_error', true);
        }
        if (!isOnEmbedOrigin(embedUrl, embedOrigin)) throw mintFailure('unknown', false);
        // A handle is single use and short-lived: never frame one that may lapse while loading.
        if (expiresIn && Date.now() - started > (expiresIn - FRESHNESS_MARGIN_S) * 1000) {
          if (this.#mayRemint()) this.#restart();
          return;
        }
        const frame = Object.assign(document.createElement('iframe'), {
          title: this.frameTitle,
          referrerPolicy: 'origin',
          src: embedUrl,
        });
        frame.setAttribute('part', 'frame');
        this.renderRoot.prepend(frame);
        signal.addEventListener('abort', () => {
          this.#refocus ||= this.shadowRoot?.activeElement === frame;
          frame.remove();
        });
        this.#set('framed');
        addEventListener(
          'message',
          ({ source, origin, data }) => {
            if (
              source === frame.contentWindow &&
              origin === embedOrigin &&
              isEmbedMessage(data) &&
              this.#mayRemint() &&
              fire(this, 'form-embed-remint', { reason: data.state }, true) &&
              // A listener that called remint() itself has started the next run already.
              !signal.aborted
            ) {
              this.#restart();
            }
          },
          { signal },
        );
        if (this.#refocus) {
          this.#refocus = false;
          frame.focus();
        }
        fire(this, 'form-embed-session', {
          provider: session.provider,
          expiresIn,
          embedOrigin,
          attempt,
        });
        return;
      } catch (error) {
        if (signal.aborted) return;
        const { code, status, retryable, retryAfter } = failureOf(error);
        const willRetry = retryable && attempt < MAX_ATTEMPTS;
        this.#set(
          willRetry ? 'waiting' : 'failed',
          willRetry ? messages.retrying : failureMessage(code),
        );
        fire(this, 'form-embed-error', { code, status, retryable, retryAfter, willRetry });
        // A listener may have started a new run (remint) or ended this one (disconnect).
        if (!willRetry || signal.aborted) return;
        const due = Date.now() + retryDelay(attempt, retryAfter);
        // A timer may fire a little early; a retry never comes before Retry-After.
        while (Date.now() < due) await sleep(due - Date.now(), signal);
        // Offline: wait for the connection instead of spending an attempt.
        while (!navigator.onLine) {
          this.#set('waiting', messages.offline);
          await online(signal);
        }
      }
    }
  }

  /** True, and counted, when one more automatic remint stays within MAX_REMINTS; else fails. */
  #mayRemint() {
    const now = Date.now();
    this.#remints = this.#remints.filter((at) => now - at < REMINT_WINDOW_MS);
    if (this.#remints.push(now) <= MAX_REMINTS) return true;
    this.#run?.abort();
    this.#set('failed', messages.storm);
  }
}
