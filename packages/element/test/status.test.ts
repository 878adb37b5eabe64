import { FormSessionError } from '@form-embed/protocol/browser';
import { expect, fixture, html } from '@open-wc/testing';
import { type FormEmbedElement, messages } from '../src/index.js';
import {
  embedOrigin,
  errorMessage,
  FakeClock,
  frameOf,
  mount,
  mountFramed,
  post,
  record,
  session,
  sessionStub,
  settle,
  statusOf,
} from './helpers.js';

const failure = (code: string, retryable = false) =>
  new FormSessionError({ code, message: 'Operator detail: key abc', retryable, status: 400 });

describe('<form-embed> status and accessibility', () => {
  it('the status area is a polite live region and the host is aria-busy while minting', async () => {
    const { element, calls } = await mount();
    const status = statusOf(element);
    expect(status.getAttribute('role')).to.equal('status');
    expect(status.getAttribute('aria-live')).to.equal('polite');
    expect(element.getAttribute('aria-busy')).to.equal('true');
    expect(status.textContent?.trim()).to.equal('Loading the form…');
    calls[0]?.resolve(session());
    await settle(element);
    expect(element.hasAttribute('aria-busy')).to.equal(false);
    expect(status.textContent?.trim()).to.equal('');
  });

  const expected: [string, string][] = [
    ['invalid_request', 'This form is not set up correctly.'],
    ['invalid_api_key', 'This form is not set up correctly.'],
    ['microsoft_connection_failed', 'This form is not set up correctly.'],
    ['form_not_found', 'This form is not available.'],
    ['form_unpublished', 'This form is not available.'],
    ['form_session_unsupported', 'This form is not available.'],
    ['client_not_entitled', 'This form is not available.'],
    ['not_found', 'This form is not available.'],
    ['client_not_found', 'Your account cannot open this form.'],
    ['client_not_connected', 'Your account cannot open this form.'],
    ['tenant_not_connected', 'Your account cannot open this form.'],
    ['user_not_found', 'Your account cannot open this form.'],
    ['invalid_user_identifier', 'Your account cannot open this form.'],
    ['microsoft_permission_denied', 'Your account cannot open this form.'],
    ['forbidden', 'Your account cannot open this form.'],
    ['unknown', 'Something went wrong.'],
    ['a_code_from_a_newer_release', 'Something went wrong.'],
  ];
  for (const [code, message] of expected) {
    it(`${code} shows "${message}" and a Try again button, never the operator message`, async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure(code));
      await settle(element);
      const status = statusOf(element);
      expect(status.textContent?.trim()).to.equal(`${message}Try again`);
      expect(status.querySelector('button')?.textContent).to.equal('Try again');
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
    const slot = (name: string) =>
      statusOf(element).querySelector<HTMLSlotElement>(`slot[name=${name}]`);
    expect(slot('loading')?.assignedElements()[0]?.textContent).to.equal('Opening your form');
    stub.calls[0]?.reject(failure('forbidden'));
    await settle(element);
    expect(slot('error')?.assignedElements()[0]?.textContent).to.equal('Could not open it');
  });

  it('events arrive in order, bubbling and composed, and only form-embed-remint is cancelable', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-session', 'form-embed-remint', 'form-embed-error');
    calls[0]?.reject(failure('internal_error', true));
    await settle(element);
    element.remint();
    calls[1]?.resolve(session({ provider: 'google', expiresIn: 120 }));
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
    await clock.tick(60_000);
    calls[1]?.resolve(session());
    await settle(element);
    expect(events[0]).to.include({ attempt: 2 });
  });

  describe('axe', () => {
    it('passes while minting', async () => {
      const { element } = await mount();
      expect(element.state).to.equal('minting');
      FakeClock.uninstall(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes when framed', async () => {
      const { element } = await mountFramed();
      expect(element.state).to.equal('framed');
      FakeClock.uninstall(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes while waiting', async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('rate_limited', true));
      await settle(element);
      expect(element.state).to.equal('waiting');
      FakeClock.uninstall(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });

    it('passes when failed', async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('forbidden'));
      await settle(element);
      expect(element.state).to.equal('failed');
      FakeClock.uninstall(); // axe keeps time with the window's timers
      await expect(element).to.be.accessible();
    });
  });

  it("a button of the page's own in the error slot does not remint; the built-in Try again does", async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}
        ><p slot="error">Sorry <button id="help">Contact support</button></p></form-embed
      >`,
    );
    stub.calls[0]?.reject(failure('form_not_found'));
    await settle(element);
    element.querySelector<HTMLButtonElement>('#help')?.click();
    expect(stub.calls).to.have.length(1);
    statusOf(element).querySelector('button')?.click();
    expect(stub.calls).to.have.length(2);
  });
});
