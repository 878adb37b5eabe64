import type { MintResponse } from '@form-embed/protocol/browser';
import { make } from './dom.js';
import { fire } from './events.js';
import { FormEmbedStatus } from './form-embed-status.js';
import { formTarget } from './form-target.js';
import { listenToFrame } from './frame-messages.js';
import { failureKey, type MessageOverrides, messages } from './messages.js';
import { type MintFailure, mintFailure } from './mint-failure.js';
import { mintThrough } from './mint-session.js';
import { ATTEMPT_TIMEOUT_MS, MAX_ATTEMPTS, remintBound, retryDelay } from './retry-policy.js';
import { nearViewport, timeLimited, untilRetry } from './waits.js';

/**
 * Frames one of the service's forms, signed in as the portal's user: it mints a form session
 * through the portal's middleware at the moment of framing, frames the embedUrl only on its
 * embed origin, and remints when the framed page says the handle or session lapsed.
 *
 * @tagname form-embed
 * @attr {string} form-id - The designer form to frame. Set exactly one of `form-id` and `core-slug`.
 * @attr {string} core-slug - The Core form to frame. Set exactly one of `form-id` and `core-slug`.
 * @attr {FormEmbedState} state - Read-only, reflects the lifecycle.
 * @fires {FormEmbedSessionEvent} form-embed-session - A session was framed.
 * @fires {FormEmbedRemintEvent} form-embed-remint - Cancelable: the framed page asked for a remint.
 * @fires {FormEmbedErrorEvent} form-embed-error - A mint failed.
 * @fires {FormEmbedNoticeEvent} form-embed-notice - Cancelable, before the lapse notice.
 * @slot loading - Replaces the built-in status while minting or waiting to retry.
 * @slot error - Replaces the built-in failure message; Try again, where offered, stays below it.
 * @slot notice - Replaces the notice's text after a lapsed session; Dismiss stays beside or below it.
 * @csspart frame - The iframe that holds the form.
 * @csspart status - The status area, a polite live region.
 * @csspart retry - The Try again button.
 * @csspart dismiss - The button that dismisses the notice.
 * @cssproperty [--form-embed-height=600px] - The height of the element.
 * @cssproperty [--form-embed-status-color=inherit] - The text colour of the status area.
 * @cssproperty [--form-embed-status-background=transparent] - The background of the status area.
 */
export class FormEmbedElement extends FormEmbedStatus {
  // Aborting it ends the run's mint, waits, frame and frame listener; none while disconnected.
  #run?: AbortController;
  #target?: string; // the form and endpoint the run was started for
  // Truthy, the next frame comes with the lapse notice: a frame posted `expired`, or one still
  // showing it could not redeem its handle. Set while that frame is up; a fresh start drops it.
  #lapsed?: unknown;
  #remints!: () => boolean; // the framed page's remints, forgotten by a fresh start

  /** Mints a fresh session now and frames it, whatever the current state. */
  remint() {
    // Before the first update, that update's mint is the fresh one: a second would be wasted.
    if (this.#run) this.#restart();
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    this.#run = this.#run?.abort() as undefined; // abort() returns undefined
    this._setStatus('idle');
    this._handFocusOver(); // focus it held fell with the element: nothing to hand on
  }

  /** @internal */
  protected override _retryPressed() {
    // Focus goes on to the form once framed (the status area holds it meanwhile).
    this._holdFocus();
    // A person's choice to start over counts its remints afresh (a page's own remint() does not,
    // so one that calls it on every failure stays bounded). Through remint(), as the README says:
    // a subclass's override is asked too.
    this.#remints = remintBound();
    this.remint();
  }

  /** @internal */
  protected override _currentMessages(): MessageOverrides {
    // The English defaults first: a page's partial set for all elements leaves the rest as is.
    return { ...messages, ...FormEmbedElement.messages, ...this.messages };
  }

  // Starts afresh on the first update after connecting (FormEmbedStatus asks for one), and on a
  // new form or endpoint, not on one set back in the same task (a morph), which would lose the
  // frame and what was typed. The target is noted first, so that a connect notes it too.
  protected override willUpdate() {
    this._paintStatus();
    // biome-ignore lint/style/useTemplate: fewer bytes than a template (as in form-embed-status.ts).
    const target = [this.formId, this.coreSlug, this.endpoint] + '';
    if (this.#target !== target || !this.#run) {
      this.#target = target;
      this.#restart(true);
    }
  }
  /**
   * Starts over; `fresh` (connect, a new form) also honours `loading` and forgets past remints,
   * and a lapse not yet told.
   */
  #restart(fresh?: boolean) {
    // A detached element never mints, even when a remint listener is what detached it.
    if (!this.isConnected) return;
    // Focus in the element (the frame, which the abort removes; Dismiss or Try again, which the
    // new run's status replaces) goes on to the next frame, its notice's Dismiss, or Try again.
    if ((this.renderRoot as ShadowRoot).activeElement) this._holdFocus();
    this.#run?.abort();
    // A lapse is told on the next frame, however many mints that takes: a fresh start forgets it.
    if (fresh) {
      this.#lapsed = false;
      this.#remints = remintBound();
    }
    this.#run = new AbortController();
    this.#frameSession(this.#run.signal, fresh);
  }

  /**
   * One run: waits for the viewport if lazy, mints (retrying as the failure allows), frames the
   * session and listens to that frame. Every step ends when `signal` aborts.
   */
  async #frameSession(signal: AbortSignal, fresh?: boolean) {
    const target = formTarget(this.formId, this.coreSlug);
    if (target && fresh && this.loading === 'lazy' && self.IntersectionObserver) {
      this._setStatus('idle');
      await nearViewport(this, signal);
    }
    for (let attempt = 1; ; attempt++) {
      // The mint waits two microtasks, then for an update pending: what the page does in the task
      // that started the run (a second remint(), a new form-id, a removal), or in a microtask of
      // its own after it (React 19 sets props so after a click), ends it first, as a mint aborted
      // at once still reaches the service; so does an `online` listener that removes the element.
      await 0;
      await 0;
      if (this.isUpdatePending) await 0;
      // None in a document with no window (a closed Picture-in-Picture window it was moved into).
      if (signal.aborted || !this.ownerDocument.defaultView) return;
      const started = performance.now();
      try {
        if (!target) throw mintFailure('invalid_request', false);
        // The request goes out first: the status it paints is not what the mint waits for.
        const minted = mintThrough(this, target, timeLimited(signal, ATTEMPT_TIMEOUT_MS));
        this._setStatus('minting', attempt > 1 ? 'retrying' : 'loading');
        const session = await minted;
        if (signal.aborted || !this.ownerDocument.defaultView) return;
        // A handle is single use and short-lived: one whose mint took more than half its life
        // may lapse while the page loads (the frame gets at least as long as the mint took). A
        // failed attempt (a slow mint), retried as any other, never framed.
        if (session.expiresIn && performance.now() - started > session.expiresIn * 500) {
          throw mintFailure('unavailable', true);
        }
        return this.#frame(session, attempt, signal);
      } catch (error) {
        if (signal.aborted || !(await this.#failed(error, attempt, signal))) return;
      }
    }
  }

  /** Reports a failed mint; resolves true, after the wait it calls for, when a retry is due. */
  async #failed(error: unknown, attempt: number, signal: AbortSignal) {
    // A FormSessionError (known by its name, so that two copies of the protocol package agree);
    // anything else a network failure, retried. Here, not in mint-failure.ts: 5 B gzip fewer.
    const {
      code,
      status,
      retryable,
      retryAfter: told,
    } = (error as MintFailure | undefined)?.name === 'FormSessionError'
      ? (error as MintFailure)
      : mintFailure('unavailable', true);
    // Not a finite number of seconds, 0 or more: absent (docs/contract.md#retry-after). Not
    // Number.isFinite: 2 B more.
    const retryAfter = typeof told === 'number' && told >= 0 && told < 1 / 0 ? told : undefined;
    const willRetry = retryable && attempt < MAX_ATTEMPTS;
    if (willRetry) this._setStatus('waiting', 'retrying');
    // Try again only where trying again can change the outcome: a retryable failure, or a code
    // this release does not know (even one the page words apart).
    else {
      this._setStatus(
        'failed',
        code,
        retryable || failureKey(code, messages) === 'unknown' ? 'retry' : '',
      );
      // Focus was on Try again, or in the form, when the run began: it goes to Try again.
      this._handFocusOver();
    }
    fire(this, 'form-embed-error', { code, status, retryable, retryAfter, willRetry });
    // A listener may have started a new run (remint) or ended this one (disconnect).
    if (!willRetry || signal.aborted) return;
    await untilRetry(retryDelay(attempt, retryAfter), signal, () =>
      this._setStatus('waiting', 'offline'),
    );
    return true;
  }

  /** Frames `session` for the run of `signal`, and remints when its page posts a lapse. */
  #frame(session: MintResponse, attempt: number, signal: AbortSignal) {
    // provider and expiresIn too, for the session event below: fewer bytes than session.provider.
    const { embedOrigin, provider, expiresIn } = session;
    // Made with its src once the answer has come: an about:blank frame inserted during the mint and
    // given its src then framed later, 15.6 ms from connect against 11.0 (bench/ab-connect.ts).
    const frame = make('iframe', {
      referrerPolicy: 'origin',
      src: session.embedUrl,
      part: 'frame',
    });
    this.renderRoot.append(frame);
    signal.addEventListener('abort', () => frame.remove());
    listenToFrame(frame, embedOrigin, signal, (state) => {
      // This frame still tells of a lapse (Dismiss, its one button, unpressed) and could not redeem
      // its handle, or the session lapsed: the next frame, whoever remints (this run, a listener's
      // remint(), a page that cancels this one and remints later), tells of it.
      this.#lapsed ||= (lapsed && this.renderRoot.querySelector('button')) || state === 'expired';
      // A remint the page cancelled is none: it keeps the frame and counts for nothing. One a
      // listener made itself (remint(), which ends this run) counts as the element's would. A
      // listener that removed the element ended it: idle, it says nothing, not even the storm;
      // put back, it has no run until its fresh start, and says nothing either.
      if (
        (fire(this, 'form-embed-remint', { reason: state }, true) || signal.aborted) &&
        this.#run &&
        this.#mayRemint() &&
        !signal.aborted
      ) {
        this.#restart();
      }
    });
    const lapsed = this.#lapsed;
    this.#lapsed = false;
    const notice = lapsed && fire(this, 'form-embed-notice', { reason: 'expired' }, true);
    // A notice listener may have started a new run (remint) or ended this one (disconnect).
    if (signal.aborted) return;
    this._setStatus('framed', notice ? 'lapsed' : '', 'dismiss');
    this._handFocusOver(frame);
    fire(this, 'form-embed-session', {
      provider,
      expiresIn,
      embedOrigin,
      attempt,
    });
  }

  /** True, and counted, when one more automatic remint stays within the bound; else fails. */
  #mayRemint() {
    if (this.#remints()) return true;
    // Focus in the frame about to go goes to Try again, as in #restart.
    if ((this.renderRoot as ShadowRoot).activeElement) this._holdFocus();
    this.#run?.abort();
    this._setStatus('failed', 'storm', 'retry');
    this._handFocusOver();
  }
}
