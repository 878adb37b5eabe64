import { FormSessionError } from '@form-embed/protocol/browser';
import { expect, fixture, html } from '@open-wc/testing';
import { FormEmbedElement, messages } from '../src/index.js';
import {
  embedOrigin,
  errorMessage,
  failure,
  frameOf,
  frames,
  mintCall,
  mintsSent,
  mount,
  mountFramed,
  mountLazyFarAway,
  post,
  record,
  session,
  sessionStub,
  settle,
  statusOf,
  stubOnLine,
  uninstallClock,
} from './helpers.js';

describe('<form-embed> status and accessibility', () => {
  // aria-busy on an ancestor of the live region lets a screen reader hold its changes back
  // until busy ends: by then "Loading the form…" is gone. So the host is never busy.
  it('the status area is a polite live region, in no busy ancestor', async () => {
    const { element, calls } = await mount();
    const status = statusOf(element);
    expect(status.getAttribute('role')).to.equal('status');
    // role=status is polite by ARIA's own default; nothing overrides it (the e2e suite reads
    // the setting from Chromium's accessibility tree).
    expect(status.getAttribute('aria-live') ?? 'polite').to.equal('polite');
    expect(element.hasAttribute('aria-busy')).to.equal(false);
    expect(status.textContent?.trim()).to.equal('Loading the form…');
    calls[0]?.resolve(session());
    await settle(element);
    expect(status.textContent?.trim()).to.equal('');
  });

  // A screen reader tells a live region's changes, not what it holds when it enters the page: the
  // first message waits until the area has been rendered empty, on connecting and reconnecting.
  it('the first message comes after a frame that renders the status area empty, so that it is announced', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    for (let connection = 0; connection < 2; connection++) {
      await new Promise(requestAnimationFrame); // in the first frame since connecting
      expect(statusOf(element).textContent).to.equal('');
      await frames();
      expect(statusOf(element).textContent).to.equal('Loading the form…');
      const parent = element.parentNode as Node;
      element.remove();
      parent.appendChild(element);
      await element.updateComplete;
    }
  });

  // The wait of a connection that ended must not open the area for the next: reconnected one
  // frame after connecting, the element still renders the area empty for a frame of its own.
  it('reconnected one frame after connecting, its first message still waits for a frame that renders the area empty', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    await new Promise(requestAnimationFrame);
    const parent = element.parentNode as Node;
    element.remove();
    parent.appendChild(element);
    await element.updateComplete;
    await new Promise(requestAnimationFrame); // in the first frame since reconnecting
    expect(statusOf(element).textContent).to.equal('');
    await frames();
    expect(statusOf(element).textContent).to.equal('Loading the form…');
  });

  it('retries say "Trying again…" until they end, not "Loading the form…" between: one change a retry', async () => {
    const { element, calls, clock } = await mount();
    const status = statusOf(element);
    const said: string[] = [];
    new MutationObserver(() => said.push(status.textContent ?? '')).observe(status, {
      subtree: true,
      childList: true,
      characterData: true,
    });
    for (let attempt = 0; attempt < 3; attempt++) {
      calls[attempt]?.reject(failure('unavailable', true));
      await settle(element);
      await clock.tick(10_000); // past the retry wait: the next attempt is minting
      await settle(element);
    }
    expect(element.state).to.equal('minting');
    expect([...new Set(said)]).to.deep.equal([messages.retrying]);
  });

  const notSetUp = 'This form is not set up correctly.';
  const notAvailable = 'This form is not available.';
  const account = 'Your account cannot open this form.';
  const expected: [code: string, message: string][] = [
    ['invalid_request', notSetUp],
    ['invalid_api_key', notSetUp],
    ['microsoft_connection_failed', notSetUp],
    ['untrusted_origin', notSetUp],
    ['form_not_found', notAvailable],
    ['form_unpublished', notAvailable],
    ['form_session_unsupported', notAvailable],
    ['client_not_entitled', notAvailable],
    ['not_found', notAvailable],
    ['client_not_found', account],
    ['client_not_connected', account],
    ['tenant_not_connected', account],
    ['user_not_found', account],
    ['invalid_user_identifier', account],
    ['microsoft_permission_denied', account],
    ['forbidden', account],
    ['sign_in_required', 'Sign in to open this form.'],
  ];
  for (const [code, message] of expected) {
    it(`${code} shows "${message}" and no Try again, which could not change the outcome`, async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure(code));
      await settle(element);
      const status = statusOf(element);
      expect(status.textContent).to.equal(message);
      expect(status.querySelector('button') === null, 'no button').to.equal(true);
    });
  }

  // One word is a code too (`suspended`); the sentences' own names are never codes
  // (ELEMENT_SENTENCE_KEYS: the middleware passes none on).
  for (const code of ['unknown', 'a_code_from_a_newer_release', 'suspended']) {
    it(`${code} shows "Something went wrong." and a Try again button, never the operator message`, async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure(code));
      await settle(element);
      const status = statusOf(element);
      expect(status.textContent).to.equal('Something went wrong.Try again');
      expect(status.querySelector('button')?.getAttribute('part')).to.equal('retry');
    });
  }

  for (const code of ['rate_limited', 'microsoft_unavailable', 'internal_error', 'unavailable']) {
    it(`${code} shows "${messages.retrying}" while waiting, then "The form is unavailable right now."`, async () => {
      const { element, calls, clock } = await mount();
      calls[0]?.reject(failure(code, true));
      await settle(element);
      expect(statusOf(element).textContent?.trim()).to.equal(messages.retrying);
      for (let i = 1; i < 4; i++) {
        await clock.tick(60_000);
        calls[i]?.reject(failure(code, true));
        await settle(element);
      }
      expect(statusOf(element).textContent?.trim()).to.equal(
        'The form is unavailable right now.Try again',
      );
    });
  }

  it('slots loading and error replace the built-in status', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}
        ><p slot="loading">Opening your form</p><p slot="error">Could not open it</p></form-embed
      >`,
    );
    await frames();
    const slot = (name: string) =>
      statusOf(element).querySelector<HTMLSlotElement>(`slot[name=${name}]`);
    expect(slot('loading')?.assignedElements()[0]?.textContent).to.equal('Opening your form');
    stub.calls[0]?.reject(failure('forbidden'));
    await settle(element);
    expect(slot('error')?.assignedElements()[0]?.textContent).to.equal('Could not open it');
  });

  it("a page's own content in a slot keeps the page's direction, whatever its first word: Arabic after a brand name is still right to left", async () => {
    const stub = sessionStub();
    const page = await fixture<HTMLElement>(
      html`<div dir="rtl" lang="ar"><form-embed form-id="f1" .fetchSession=${stub.fetchSession}
        ><p slot="error">Microsoft 365 غير متاح حاليًا.</p></form-embed
      ></div>`,
    );
    const element = page.querySelector('form-embed') as FormEmbedElement;
    await frames();
    stub.calls[0]?.reject(failure('forbidden'));
    await settle(element);
    const own = element.querySelector('p') as HTMLElement;
    expect(own.assignedSlot?.name).to.equal('error');
    expect(getComputedStyle(own).direction).to.equal('rtl');
  });

  it("a page's own content in a slot is centred, an item narrower than the slot too (a spinner above its words)", async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" style="width:400px" .fetchSession=${stub.fetchSession}
        ><span slot="loading" style="display:block;width:20px;height:20px"></span
        ><p slot="loading">Opening your form, a moment please</p></form-embed
      >`,
    );
    await frames();
    const centre = (node: Element) => {
      const { left, width } = node.getBoundingClientRect();
      return left + width / 2;
    };
    const spinner = element.querySelector('span') as HTMLElement;
    expect(Math.abs(centre(spinner) - centre(statusOf(element)))).to.be.below(1);
  });

  it('events arrive in order, bubbling and composed, and only form-embed-remint is cancelable', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-session', 'form-embed-remint', 'form-embed-error');
    calls[0]?.reject(failure('internal_error', true));
    await settle(element);
    element.remint();
    (await mintCall(calls, 1)).resolve(session({ provider: 'google', expiresIn: 120 }));
    await settle(element);
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    expect(events.map((e) => e.type)).to.deep.equal([
      'form-embed-error',
      'form-embed-session',
      'form-embed-remint',
    ]);
    expect(events.map((e) => [e.bubbles, e.composed, e.cancelable])).to.deep.equal([
      [true, true, false],
      [true, true, false],
      [true, true, true],
    ]);
    expect(events[1]).to.include({
      provider: 'google',
      expiresIn: 120,
      embedOrigin,
      attempt: 1,
    });
  });

  it('form-embed-session says which attempt succeeded', async () => {
    const { element, calls, clock } = await mount();
    const events = record(element, 'form-embed-session');
    calls[0]?.reject(failure('unavailable', true));
    await settle(element);
    await clock.tick(1_100); // the first retry's wait, jitter included
    calls[1]?.resolve(session());
    await settle(element);
    expect(events[0]).to.include({ attempt: 2 });
  });

  describe('signed out', () => {
    it('sign_in_required shows the sign-in message, no Try again, and fires form-embed-error with the code', async () => {
      const { element, calls } = await mount();
      const events = record(element, 'form-embed-error');
      calls[0]?.reject(
        new FormSessionError({
          code: 'sign_in_required',
          message: 'm',
          retryable: false,
          status: 401,
        }),
      );
      await settle(element);
      expect(element.state).to.equal('failed');
      expect(statusOf(element).textContent).to.equal('Sign in to open this form.');
      expect(statusOf(element).querySelector('button') === null, 'no button').to.equal(true);
      expect(events[0]).to.include({ code: 'sign_in_required', status: 401, willRetry: false });
    });

    it('remint() after the page signs the user back in frames the form', async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('sign_in_required'));
      await settle(element);
      element.remint();
      (await mintCall(calls, 1)).resolve(session());
      await settle(element);
      expect(element.state).to.equal('framed');
      expect(statusOf(element).textContent).to.equal('');
    });
  });

  describe('the Try again button', () => {
    it('is part="retry", inherits the page font and is at least 24x24 CSS px', async () => {
      const stub = sessionStub();
      const element = await fixture<FormEmbedElement>(
        html`<form-embed
          style="font: italic 13px Georgia, serif"
          form-id="f1"
          .fetchSession=${stub.fetchSession}
        ></form-embed>`,
      );
      stub.calls[0]?.reject(failure('unknown'));
      await settle(element);
      const button = statusOf(element).querySelector('button') as HTMLButtonElement;
      expect(button.getAttribute('part')).to.equal('retry');
      const style = getComputedStyle(button);
      expect(style.fontFamily).to.equal('Georgia, serif');
      expect(style.fontStyle).to.equal('italic');
      const { width, height } = button.getBoundingClientRect();
      expect(width).to.be.at.least(24);
      expect(height).to.be.at.least(24);
    });

    it('shows a visible focus ring when focused from the keyboard', async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('unknown'));
      await settle(element);
      const button = statusOf(element).querySelector('button') as HTMLButtonElement;
      button.focus({ focusVisible: true } as FocusOptions);
      expect(button.matches(':focus-visible')).to.equal(true);
      // The browser's own focus ring: the page's styles cannot reach into the shadow root to hide it.
      const style = getComputedStyle(button);
      expect(style.outlineStyle).to.not.equal('none');
      expect(Number.parseFloat(style.outlineWidth)).to.be.at.least(1);
    });

    it("calls remint(), as the README says: a partner's subclass that overrides it is asked", async () => {
      const reasons: string[] = [];
      class SigningInFormEmbed extends FormEmbedElement {
        override remint() {
          reasons.push('remint');
          super.remint();
        }
      }
      SigningInFormEmbed.define('signing-in-form-embed');
      const stub = sessionStub();
      const element = await fixture<SigningInFormEmbed>(
        html`<signing-in-form-embed form-id="f1" .fetchSession=${stub.fetchSession}></signing-in-form-embed>`,
      );
      await frames();
      stub.calls[0]?.reject(failure('unknown'));
      await settle(element);
      statusOf(element).querySelector('button')?.click();
      expect(reasons).to.deep.equal(['remint']);
      await mintCall(stub.calls, 1);
      expect(stub.calls).to.have.length(2);
    });

    it('the status area takes its colours from --form-embed-status-color and -background', async () => {
      const { element } = await mount();
      element.style.setProperty('--form-embed-status-color', 'rgb(1, 2, 3)');
      element.style.setProperty('--form-embed-status-background', 'rgb(4, 5, 6)');
      const style = getComputedStyle(statusOf(element));
      expect(style.color).to.equal('rgb(1, 2, 3)');
      expect(style.backgroundColor).to.equal('rgb(4, 5, 6)');
    });
  });

  describe('axe', () => {
    it('passes while minting', async () => {
      const { element } = await mount();
      expect(element.state).to.equal('minting');
      uninstallClock(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes when framed', async () => {
      const { element } = await mountFramed();
      expect(element.state).to.equal('framed');
      uninstallClock(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes while waiting', async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('rate_limited', true));
      await settle(element);
      expect(element.state).to.equal('waiting');
      uninstallClock(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    for (const code of ['forbidden', 'unknown', 'sign_in_required']) {
      it(`passes when failed with ${code}`, async () => {
        const { element, calls } = await mount();
        calls[0]?.reject(failure(code));
        await settle(element);
        expect(element.state).to.equal('failed');
        uninstallClock(); // axe keeps time with the window's timers
        await expect(element).to.be.accessible();
      });
    }

    it('passes while waiting offline', async () => {
      const restore = stubOnLine(() => false);
      try {
        const { element, calls, clock } = await mount();
        calls[0]?.reject(failure('rate_limited', true));
        await settle(element);
        await clock.tick(600_000);
        expect(statusOf(element).textContent).to.equal(messages.offline);
        uninstallClock(); // axe keeps time with the window's timers
        await expect(element).to.be.accessible();
      } finally {
        restore();
      }
    });

    it('passes when the remint bound stopped the element', async () => {
      const { element, calls, clock } = await mountFramed();
      for (let i = 1; i <= 5; i++) {
        post(errorMessage(), embedOrigin, frameOf(element)?.contentWindow ?? null);
        // The fifth remint is past the bound: the element stops instead of minting.
        if (i < 5) (await mintCall(calls, i)).resolve(session());
        await settle(element);
        await clock.tick(1_000);
      }
      expect(statusOf(element).textContent).to.equal(`${messages.storm}${messages.retry}`);
      uninstallClock(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes while idle, lazy and far from the viewport', async () => {
      const { element, calls } = await mountLazyFarAway();
      await settle(element);
      expect(element.state).to.equal('idle');
      await expect(element).to.be.accessible();
      expect(calls).to.have.length(0);
    });

    it('passes with the lapse notice and its Dismiss button', async () => {
      const { element, calls } = await mountFramed();
      post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
      (await mintCall(calls, 1)).resolve(session());
      await settle(element);
      expect(statusOf(element).querySelector('[part=dismiss]')).to.not.equal(null);
      uninstallClock(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });
  });

  it('a newer code the page words apart still offers Try again', async () => {
    const { element, calls } = await mount();
    element.messages = { seat_limit_reached: 'Ask your administrator for a seat.' };
    calls[0]?.reject(failure('seat_limit_reached'));
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Ask your administrator for a seat.Try again');
    expect(statusOf(element).querySelector('[part=retry]')).to.not.equal(null);
  });

  it('Try again and Dismiss are described by the message they belong to (aria-describedby)', async () => {
    const describedBy = (element: FormEmbedElement, part: string) => {
      const id = statusOf(element)
        .querySelector(`[part=${part}]`)
        ?.getAttribute('aria-describedby');
      return element.shadowRoot?.getElementById(id ?? '')?.textContent;
    };
    const failed = await mount();
    failed.calls[0]?.reject(failure('unknown'));
    await settle(failed.element);
    expect(describedBy(failed.element, 'retry')).to.equal(messages.unknown);
    const { element, calls } = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expect(describedBy(element, 'dismiss')).to.equal(messages.lapsed);
  });

  it('Try again says it is loading, minting, until its mint answers: the Dismiss path is not taken too', async () => {
    const { element, calls } = await mount();
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    statusOf(element).querySelector<HTMLButtonElement>('[part=retry]')?.click();
    await settle(element);
    expect(element.getAttribute('state')).to.equal('minting');
    expect(statusOf(element).textContent).to.equal('Loading the form…');
    calls[1]?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
  });

  it("a page's new words for the button alone relabel it, though the message stays as it was", async () => {
    const { element, calls } = await mount();
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    const message = statusOf(element).querySelector('slot')?.textContent;
    element.messages = { retry: 'Retry now' };
    await settle(element);
    expect(statusOf(element).querySelector('slot')?.textContent).to.equal(message);
    expect(statusOf(element).querySelector('[part=retry]')?.textContent).to.equal('Retry now');
  });

  it("a button of the page's own in the error slot does not remint; the built-in Try again does", async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}
        ><p slot="error">Sorry <button id="help">Contact support</button></p></form-embed
      >`,
    );
    stub.calls[0]?.reject(failure('unknown'));
    await settle(element);
    element.querySelector<HTMLButtonElement>('#help')?.click();
    await mintsSent();
    expect(stub.calls).to.have.length(1);
    statusOf(element).querySelector('button')?.click();
    await mintCall(stub.calls, 1);
    expect(stub.calls).to.have.length(2);
  });
});
