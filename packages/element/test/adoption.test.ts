import { expect, fixture, html } from '@open-wc/testing';
import type { FormEmbedElement } from '../src/index.js';
import { failure, installClock, session, sessionStub, settle, statusOf } from './helpers.js';

// A page (and a Picture-in-Picture window) whose Content-Security-Policy blocks inline styles, as
// the demo's does: the element must keep its looks without any <style> element.
function strictStyleSrc(document: Document) {
  const meta = document.createElement('meta');
  meta.httpEquiv = 'Content-Security-Policy';
  meta.content = "style-src 'self'";
  document.head.append(meta);
}

/** A same-origin window of its own, standing in for a Document Picture-in-Picture window. */
function otherWindow() {
  const host = document.createElement('iframe');
  document.body.append(host);
  strictStyleSrc(host.contentDocument as Document);
  return host;
}

/** An element first connected in `otherWindow()`, with its mint stub, once it has updated there. */
async function connectedInOtherWindow() {
  const stub = sessionStub();
  const host = otherWindow();
  const element = document.createElement('form-embed') as FormEmbedElement;
  element.setAttribute('form-id', 'f1');
  element.fetchSession = stub.fetchSession;
  host.contentDocument?.body.append(element);
  await settle(element);
  return { stub, host, element };
}

const styled = (element: HTMLElement) => getComputedStyle(element).display === 'flex';

describe('<form-embed> moved into another document, under a strict style-src', () => {
  strictStyleSrc(document);

  it('keeps its styles there and once moved back', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    expect(styled(element), 'styled where it was first connected').to.equal(true);
    const parent = element.parentNode as Node;
    const host = otherWindow();
    try {
      for (let trip = 0; trip < 2; trip++) {
        host.contentDocument?.body.append(element);
        await settle(element);
        expect(styled(element), 'styled in the other window').to.equal(true);
        parent.appendChild(element);
        await settle(element);
        expect(styled(element), 'styled once back').to.equal(true);
      }
    } finally {
      host.remove();
    }
  });

  it('made in this document and first connected in the other one, it frames there, styled', async () => {
    const stub = sessionStub();
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    addEventListener('error', onError);
    const host = otherWindow();
    try {
      const element = document.createElement('form-embed') as FormEmbedElement;
      element.setAttribute('form-id', 'f1');
      element.fetchSession = stub.fetchSession;
      host.contentDocument?.body.append(element);
      await settle(element);
      stub.calls.at(-1)?.resolve(session());
      await settle(element);
      expect(errors).to.deep.equal([]);
      expect(element.state).to.equal('framed');
      expect(styled(element)).to.equal(true);
    } finally {
      removeEventListener('error', onError);
      host.remove();
    }
  });

  // Document Picture-in-Picture is used while the page's tab is hidden, and a hidden document
  // renders no frames: the status area must wait for the frames of the window it is in.
  it('moved into another window while this one renders no frames (a hidden tab), its status and Try again show there', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    const host = otherWindow();
    const view = host.contentWindow as Window;
    const viewFrames = async () => {
      for (let i = 0; i < 2; i++)
        await new Promise((resolve) => view.requestAnimationFrame(resolve));
    };
    const { requestAnimationFrame } = window;
    window.requestAnimationFrame = () => 1; // never called back, as in a hidden tab
    try {
      host.contentDocument?.body.append(element);
      await element.updateComplete;
      await viewFrames();
      expect(element.state).to.equal('minting');
      expect(statusOf(element).textContent).to.equal('Loading the form…');
      stub.calls.at(-1)?.reject(failure('a_code_of_a_later_release'));
      await element.updateComplete;
      await viewFrames();
      expect(element.state).to.equal('failed');
      expect(statusOf(element).querySelector('[part=retry]') === null).to.equal(false);
    } finally {
      window.requestAnimationFrame = requestAnimationFrame;
      host.remove();
    }
  });
  it("moved into a document with no window (a template's content) it throws nothing, and once back it is styled", async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    const parent = element.parentNode as Node;
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    addEventListener('error', onError);
    try {
      document.createElement('template').content.append(element);
      parent.appendChild(element);
      await settle(element);
    } finally {
      removeEventListener('error', onError);
    }
    expect(errors).to.deep.equal([]);
    expect(styled(element)).to.equal(true);
  });

  it('connected in a document with no window (one made by createHTMLDocument) it throws nothing and mints nothing there', async () => {
    const stub = sessionStub();
    const element = document.createElement('form-embed') as FormEmbedElement;
    element.setAttribute('form-id', 'f1');
    element.fetchSession = stub.fetchSession;
    const errors: string[] = [];
    const onError = (event: ErrorEvent) => errors.push(event.message);
    addEventListener('error', onError);
    try {
      document.implementation.createHTMLDocument('').body.append(element);
      await settle(element);
    } finally {
      removeEventListener('error', onError);
    }
    expect(element.isConnected).to.equal(true);
    expect(errors).to.deep.equal([]);
    expect(stub.calls).to.have.length(0);
  });

  // A Picture-in-Picture window that closes takes its document's window away, not the element:
  // it stays connected there, and must not go on minting for nobody.
  it('left in a window that closed (a Picture-in-Picture window), a retry it had pending mints nothing there', async () => {
    const clock = installClock();
    const { stub, host, element } = await connectedInOtherWindow();
    stub.calls.at(-1)?.reject(failure('internal_error', true));
    await settle(element);
    expect(element.state).to.equal('waiting');
    const minted = stub.calls.length;
    host.remove();
    expect(element.isConnected, 'still connected, to a document with no window').to.equal(true);
    await clock.tick(60_000);
    expect(stub.calls).to.have.length(minted);
  });

  it('left in a window that closed while its mint was out, it frames nothing there when the answer comes, and neither fails nor retries', async () => {
    const { stub, host, element } = await connectedInOtherWindow();
    expect(element.state).to.equal('minting');
    const errors: Event[] = [];
    element.addEventListener('form-embed-error', (event) => errors.push(event));
    host.remove();
    stub.calls.at(-1)?.resolve(session());
    await settle();
    expect(element.shadowRoot?.querySelector('iframe')).to.equal(null);
    expect(element.state).to.equal('minting');
    // No failure reported, so no retry scheduled either.
    expect(errors).to.have.length(0);
    expect(stub.calls).to.have.length(1);
  });
});
