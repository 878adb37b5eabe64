import { expect } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import { type FormEmbedElement, messages } from '../src/index.js';
import {
  embedOrigin,
  embedUrl,
  errorMessage,
  frameOf,
  mintCall,
  mount,
  mountFramed,
  post,
  record,
  session,
  settle,
  statusOf,
  when,
} from './helpers.js';

describe('<form-embed> framing', () => {
  it('frames an embedUrl on the embed origin, titled by frame-title, with a referrer policy and no sandbox', async () => {
    const { element, calls } = await mount();
    element.setAttribute('frame-title', 'Password reset');
    calls[0]?.resolve(session());
    await settle(element);
    const frame = frameOf(element) as HTMLIFrameElement;
    expect(frame.title).to.equal('Password reset');
    expect(frame.referrerPolicy).to.equal('origin');
    expect(frame.hasAttribute('sandbox')).to.equal(false);
  });

  it('fills the element, and a page that makes the element a block (form-embed{display:block}, a habit with custom elements) still sees the form', async () => {
    const { element } = await mountFramed();
    element.style.setProperty('--form-embed-height', '400px');
    expect(frameOf(element)?.getBoundingClientRect().height).to.equal(400);
    element.style.display = 'block';
    // Out of the flex layout the frame has its own height again (150 px), never none.
    expect(frameOf(element)?.getBoundingClientRect().height).to.be.at.least(150);
  });

  it('the iframe is named "Embedded form" by default', async () => {
    const { element } = await mountFramed();
    expect(frameOf(element)?.title).to.equal('Embedded form');
  });

  it('an empty frame-title (a React prop left empty, say) leaves the frame its default name', async () => {
    const { element } = await mountFramed();
    element.setAttribute('frame-title', '');
    await settle(element);
    expect(frameOf(element)?.title).to.equal('Embedded form');
  });

  it('never frames an embedUrl whose origin is not the embed origin', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-error');
    calls[0]?.resolve(session({ embedUrl: 'https://evil.example/form?h=1' }));
    await settle(element);
    expect(frameOf(element) === null, 'no frame').to.equal(true);
    expect(element.state).to.equal('failed');
    expect(events[0]).to.include({ code: 'untrusted_origin', retryable: false, willRetry: false });
    // "This form is not set up correctly.", with no Try again: a new mint would be refused again.
    expect(statusOf(element).querySelector('button') === null, 'no Try again').to.equal(true);
  });

  it('treats an answer that is not a MintResponse as internal_error and retries it', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-error');
    calls[0]?.resolve({ embedUrl: embedUrl() });
    await settle(element);
    expect(frameOf(element) === null, 'no frame').to.equal(true);
    expect(events[0]).to.include({ code: 'internal_error', retryable: true, willRetry: true });
    expect(element.state).to.equal('waiting');
  });

  it("treats an answer of null (a page's fetchSession that resolved nothing) as internal_error too", async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-error');
    calls[0]?.resolve(null);
    await settle(element);
    expect(events[0]).to.include({ code: 'internal_error', retryable: true });
  });

  // The contract's handles last 120 s, which an attempt's 30 s limit keeps well clear of; the
  // rule is what guards a shorter one.
  it('frames an answer as old as half its expiresIn, to the millisecond', async () => {
    const { element, calls, clock } = await mount();
    const answer = session({ expiresIn: 30 });
    await clock.tick(15_000);
    calls[0]?.resolve(answer);
    await settle(element);
    expect(calls).to.have.length(1);
    expect(frameOf(element)?.src).to.equal(answer.embedUrl);
  });

  // A sandbox started with a short handleTtlSeconds: a fixed margin of 10 s threw every one away.
  for (const expiresIn of [1, 10]) {
    it(`frames a ${expiresIn} s handle answered in half its life`, async () => {
      const { element, calls, clock } = await mount();
      const answer = session({ expiresIn });
      await clock.tick(expiresIn * 500);
      calls[0]?.resolve(answer);
      await settle(element);
      expect(calls).to.have.length(1);
      expect(frameOf(element)?.src).to.equal(answer.embedUrl);
    });
  }

  it('throws away an answer older than half its expiresIn: a failed attempt, retried', async () => {
    const { element, calls, clock } = await mount();
    const events = record(element, 'form-embed-error');
    const stale = session({ expiresIn: 30 });
    await clock.tick(15_001);
    calls[0]?.resolve(stale);
    await settle(element);
    expect(frameOf(element) === null, 'no frame').to.equal(true);
    expect(events[0]).to.include({ code: 'unavailable', retryable: true, willRetry: true });
    expect(element.state).to.equal('waiting');
    await clock.tick(1_100); // the first retry's wait, jitter included
    expect(calls).to.have.length(2);
    const fresh = session();
    calls[1]?.resolve(fresh);
    await settle(element);
    expect(frameOf(element)?.src).to.equal(fresh.embedUrl);
  });

  it('answers that keep arriving stale end as unavailable after the attempts, not as a storm of the framed page', async () => {
    const { element, calls, clock } = await mount();
    for (let attempt = 0; attempt < 4; attempt++) {
      await clock.tick(15_001);
      calls[attempt]?.resolve(session({ expiresIn: 30 }));
      await settle(element);
      await clock.tick(10_000); // past any retry wait
    }
    expect(calls).to.have.length(4);
    expect(element.state).to.equal('failed');
    expect(statusOf(element).textContent).to.equal(`${messages.unavailable}${messages.retry}`);
  });

  it('a wall clock moved on during the mint does not make a fresh answer stale', async () => {
    const { element, calls, clock } = await mount();
    clock.moveWallClock(300_000);
    calls[0]?.resolve(session({ expiresIn: 120 }));
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(calls).to.have.length(1);
  });

  it('frames an answer with expiresIn 0 (no handle) however long the mint took, within its 30 s', async () => {
    const { element, calls, clock } = await mount();
    await clock.tick(29_999);
    calls[0]?.resolve(session({ expiresIn: 0, provider: 'none' }));
    await settle(element);
    expect(calls).to.have.length(1);
    expect(element.state).to.equal('framed');
  });

  it('frames a session of a provider this release does not know, and says it in form-embed-session as the service named it', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-session');
    calls[0]?.resolve(session({ provider: 'passkey' }));
    await settle(element);
    expect(calls).to.have.length(1);
    expect(element.state).to.equal('framed');
    expect(events[0]).to.include({ provider: 'passkey', attempt: 1 });
  });

  it('every remint frames a new iframe element', async () => {
    const { element, calls } = await mountFramed();
    const first = frameOf(element) as HTMLIFrameElement;
    post(errorMessage(), embedOrigin, first.contentWindow);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    const second = frameOf(element);
    expect(second).to.not.equal(null);
    expect(second !== first, 'a new iframe').to.equal(true);
    expect(first.isConnected).to.equal(false);
  });

  it('moved into another document (a Picture-in-Picture window), it keeps its styles, hears its frame there and remints', async () => {
    const { element, calls } = await mount();
    const host = document.createElement('iframe');
    document.body.append(host);
    try {
      // Inserting it there adopts it: reconnected, it starts afresh and frames in that document.
      host.contentDocument?.body.append(element);
      await settle(element);
      // The framed page posts `error` to its parent, the window of the element's new document: a
      // real post, its message a structured clone made in that window's realm, not this one's.
      const framed = when(element, 'form-embed-session');
      const reminted = when(element, 'form-embed-remint');
      calls.at(-1)?.resolve(session({ embedUrl: embedUrl('error') }));
      await framed;
      expect(getComputedStyle(element).display, 'its styles came along').to.equal('flex');
      // Reminted, or its page loaded and every message it posted has reached the window: messages
      // to one window arrive in the order posted, so the page's come before one posted after load.
      const loaded = new Promise((resolve) =>
        frameOf(element)?.addEventListener('load', resolve, { once: true }),
      );
      const postedAfterLoad = loaded.then(
        () =>
          new Promise((resolve) => {
            host.contentWindow?.addEventListener(
              'message',
              (e) => e.data === 'after' && resolve(0),
            );
            host.contentWindow?.postMessage('after', '*');
          }),
      );
      await Promise.race([reminted, postedAfterLoad]);
      await mintCall(calls, 2);
      expect(calls).to.have.length(3);
    } finally {
      host.remove();
    }
  });

  it('history.length is unchanged after three remints', async () => {
    // Listened for in the task that frames, so a fast load cannot come before the listener.
    const nextFrameLoaded = (element: FormEmbedElement) =>
      new Promise((resolve) =>
        element.addEventListener(
          'form-embed-session',
          () => frameOf(element)?.addEventListener('load', resolve),
          { once: true },
        ),
      );
    const { element, calls } = await mount();
    let loaded = nextFrameLoaded(element);
    calls[0]?.resolve(session());
    await loaded;
    const before = history.length;
    for (let i = 1; i <= 3; i++) {
      loaded = nextFrameLoaded(element);
      // Chromium adds a history entry for a frame's navigation only while the page has a user's
      // activation (a click on Try again, or in the form, which activates the page too): without
      // one, a frame reused for the new embedUrl would leave history.length unchanged as well.
      await sendMouse({ type: 'click', position: [0, 0] });
      post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
      (await mintCall(calls, i)).resolve(session());
      await loaded;
    }
    expect(calls).to.have.length(4);
    expect(history.length).to.equal(before);
  });

  it('a late message from the old frame cannot trigger a second remint', async () => {
    const { element, calls } = await mountFramed();
    const oldWindow = frameOf(element)?.contentWindow ?? null;
    post(errorMessage(), embedOrigin, oldWindow);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    post(errorMessage(), embedOrigin, oldWindow);
    await settle(element);
    expect(calls).to.have.length(2);
    expect(element.state).to.equal('framed');
  });

  it('a message with no source never counts, also once the frame is out of its document (its contentWindow null too)', async () => {
    const { element, calls } = await mountFramed();
    const remints = record(element, 'form-embed-remint');
    frameOf(element)?.remove();
    post(errorMessage(), embedOrigin, null);
    await settle(element);
    expect(remints).to.have.length(0);
    expect(calls).to.have.length(1);
  });

  it('when the user was in the form, focus moves to the new frame after a remint', async () => {
    const { element, calls } = await mountFramed();
    const first = frameOf(element) as HTMLIFrameElement;
    first.focus();
    expect(element.shadowRoot?.activeElement === first, 'the first frame has focus').to.equal(true);
    post(errorMessage('error'), embedOrigin, first.contentWindow);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    const second = frameOf(element);
    expect(second !== first && element.shadowRoot?.activeElement === second).to.equal(true);
  });

  it("when the user was in the form and the session lapsed, focus goes to the notice's Dismiss, so that the notice is read", async () => {
    const { element, calls } = await mountFramed();
    frameOf(element)?.focus();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expect(element.shadowRoot?.activeElement?.getAttribute('part')).to.equal('dismiss');
  });

  it('when the user was in the form and the page suppressed the lapse notice, focus goes to the new frame', async () => {
    const { element, calls } = await mountFramed();
    element.addEventListener('form-embed-notice', (event) => event.preventDefault());
    frameOf(element)?.focus();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    const frame = frameOf(element);
    expect(frame !== null && element.shadowRoot?.activeElement === frame).to.equal(true);
  });

  it('when the user was elsewhere, a remint leaves focus alone', async () => {
    const { element, calls } = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expect(element.shadowRoot?.activeElement === null, 'nothing focused').to.equal(true);
  });

  for (const expiresIn of ['0' as unknown as number, Number.NaN, -1]) {
    it(`an answer whose expiresIn is ${typeof expiresIn} ${String(expiresIn)} is internal_error, not a remint loop`, async () => {
      const { element, calls } = await mount();
      const errors = record(element, 'form-embed-error');
      calls[0]?.resolve(session({ expiresIn }));
      await settle(element);
      expect(errors[0]).to.include({ code: 'internal_error', retryable: true });
      expect(frameOf(element) === null, 'no frame').to.equal(true);
    });
  }

  it('an answer without embedOrigin is internal_error and retried, not refused as off its origin', async () => {
    const { element, calls } = await mount();
    const events = record(element, 'form-embed-error');
    calls[0]?.resolve(session({ embedOrigin: undefined as unknown as string }));
    await settle(element);
    expect(frameOf(element) === null, 'no frame').to.equal(true);
    expect(events[0]).to.include({ code: 'internal_error', retryable: true, willRetry: true });
    expect(element.state).to.equal('waiting');
  });

  it('focus still moves to the new frame when a form-embed-session listener remints again', async () => {
    const { element, calls } = await mountFramed();
    frameOf(element)?.focus();
    let sessions = 0;
    element.addEventListener('form-embed-session', () => {
      if (++sessions === 1) element.remint();
    });
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    calls[2]?.resolve(session());
    await settle(element);
    const frame = frameOf(element);
    expect(frame !== null && element.shadowRoot?.activeElement === frame).to.equal(true);
  });
});
