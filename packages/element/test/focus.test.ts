import { expect, fixture, html } from '@open-wc/testing';
import { sendMouse } from '@web/test-runner-commands';
import type { FormEmbedElement } from '../src/index.js';
import {
  embedOrigin,
  errorMessage,
  failure,
  frameOf,
  mintCall,
  mount,
  mountFramed,
  post,
  session,
  sessionStub,
  settle,
  statusOf,
} from './helpers.js';

/** What has focus inside the element, by tag and part: DOM nodes make chai's failure output hang. */
function focusedIn(element: Element) {
  const active = element.shadowRoot?.activeElement;
  return active ? `${active.localName} ${active.getAttribute('part') ?? ''}`.trim() : 'nothing';
}

/** A real mouse click on the element's status area (its text, while loading or failed). */
async function clickStatusArea(element: FormEmbedElement) {
  const { x, y, width, height } = statusOf(element).getBoundingClientRect();
  await sendMouse({
    type: 'click',
    position: [Math.round(x + width / 2), Math.round(y + height / 3)],
  });
}

/** An element whose mint failed with a code that offers Try again. */
async function failedWithTryAgain() {
  const { element, calls } = await mount();
  calls[0]?.reject(failure('unknown'));
  await settle(element);
  return element;
}

/** An element framed again after its page posted `expired`: the lapse notice and its Dismiss. */
async function framedWithNotice() {
  const { element, calls } = await mountFramed();
  post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
  (await mintCall(calls, 1)).resolve(session());
  await settle(element);
  return element;
}

/** A dialog holding a Close button and, before it, an element minting through a stub. */
async function inDialog() {
  const dialog = await fixture<HTMLDialogElement>(html`<dialog><button>Close</button></dialog>`);
  const stub = sessionStub();
  const element = document.createElement('form-embed');
  element.formId = 'f1';
  element.fetchSession = stub.fetchSession;
  dialog.prepend(element);
  return { dialog, stub, element };
}

describe('<form-embed> focus', () => {
  /** Mounts, fails the first mint, then focuses and clicks Try again (the second mint is due). */
  async function tryAgainByKeyboard() {
    const mounted = await mount();
    mounted.calls[0]?.reject(failure('unknown'));
    await settle(mounted.element);
    const retry = statusOf(mounted.element).querySelector<HTMLButtonElement>('[part=retry]');
    retry?.focus();
    retry?.click();
    return mounted;
  }

  it('Try again hands focus to the new frame once it is framed', async () => {
    const { element, calls } = await tryAgainByKeyboard();
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(focusedIn(element)).to.equal('iframe frame');
  });

  it('Try again that fails again hands focus to the new Try again, not to the page', async () => {
    const { element, calls } = await tryAgainByKeyboard();
    (await mintCall(calls, 1)).reject(failure('unknown'));
    await settle(element);
    expect(element.state).to.equal('failed');
    expect(focusedIn(element)).to.equal('button retry');
  });

  it('a frame that had focus, whose remint fails, hands it to Try again', async () => {
    const { element, calls } = await mountFramed();
    frameOf(element)?.focus();
    post(errorMessage('error'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).reject(failure('unknown'));
    await settle(element);
    expect(focusedIn(element)).to.equal('button retry');
  });

  it('a frame that had focus and keeps failing (the remint bound) hands it to Try again', async () => {
    const { element, calls } = await mountFramed();
    for (let i = 1; i <= 5; i++) {
      frameOf(element)?.focus();
      post(errorMessage('error'), embedOrigin, frameOf(element)?.contentWindow ?? null);
      // The fifth remint is past the bound: the element stops instead of minting.
      if (i < 5) (await mintCall(calls, i)).resolve(session());
      await settle(element);
    }
    expect(element.state).to.equal('failed');
    expect(focusedIn(element)).to.equal('button retry');
  });

  it("Dismiss that had focus when a lapse removed the frame hands focus to the new notice's Dismiss", async () => {
    const { element, calls } = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    const before = statusOf(element).querySelector<HTMLButtonElement>('[part=dismiss]');
    before?.focus();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 2)).resolve(session());
    await settle(element);
    expect(focusedIn(element)).to.equal('button dismiss');
    expect(element.state).to.equal('framed');
  });

  /** A frame with the lapse notice, whose Dismiss has focus. */
  async function noticeDismissFocused() {
    const mounted = await mountFramed();
    const { element, calls } = mounted;
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    statusOf(element).querySelector<HTMLButtonElement>('[part=dismiss]')?.focus();
    return mounted;
  }

  it("Dismiss that had focus when the page's remint removed the frame hands focus to the new frame", async () => {
    const { element, calls } = await noticeDismissFocused();
    element.remint();
    (await mintCall(calls, 2)).resolve(session());
    await settle(element);
    expect(focusedIn(element)).to.equal('iframe frame');
  });

  it("Dismiss that had focus when the notice's frame posted error goes to the notice passed on", async () => {
    const { element, calls } = await noticeDismissFocused();
    post(errorMessage('error'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 2)).resolve(session());
    await settle(element);
    expect(focusedIn(element)).to.equal('button dismiss');
  });

  for (const [how, start] of [
    ['remint()', (element: FormEmbedElement) => element.remint()],
    ['a new form-id', (element: FormEmbedElement) => element.setAttribute('form-id', 'f2')],
  ] as const) {
    it(`Try again that had focus when the page started afresh (${how}) hands it to the new frame`, async () => {
      const { element, calls } = await mount();
      calls[0]?.reject(failure('unknown'));
      await settle(element);
      statusOf(element).querySelector<HTMLButtonElement>('[part=retry]')?.focus();
      start(element);
      await settle(element);
      expect(focusedIn(element)).to.equal('div status');
      calls[1]?.resolve(session());
      await settle(element);
      expect(focusedIn(element)).to.equal('iframe frame');
    });
  }

  it('a failure without Try again takes no focus the user did not give the element', async () => {
    const { element, calls } = await mount();
    calls[0]?.reject(failure('form_not_found'));
    await settle(element);
    expect(document.activeElement === document.body, 'focus on the body').to.equal(true);
  });

  it('a repaint that changes nothing in the status leaves focus on its button', async () => {
    const framed = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(framed.element)?.contentWindow ?? null);
    (await mintCall(framed.calls, 1)).resolve(session());
    await settle(framed.element);
    const dismiss = statusOf(framed.element).querySelector<HTMLButtonElement>('[part=dismiss]');
    dismiss?.focus();
    framed.element.frameTitle = 'Leave request';
    await settle(framed.element);
    expect(frameOf(framed.element)?.title).to.equal('Leave request');
    expect(focusedIn(framed.element)).to.equal('button dismiss');
  });

  for (const [part, setUp] of [
    ['retry', () => failedWithTryAgain()],
    ['dismiss', () => framedWithNotice()],
  ] as const) {
    it(`new messages (a language switch) while ${part} has focus keep focus on it, relabelled`, async () => {
      const element = await setUp();
      statusOf(element).querySelector<HTMLButtonElement>(`[part=${part}]`)?.focus();
      element.messages = { retry: 'Erneut versuchen', dismiss: 'Schließen', unknown: 'Fehler.' };
      await settle(element);
      expect(focusedIn(element)).to.equal(`button ${part}`);
      expect(statusOf(element).querySelector(`[part=${part}]`)?.textContent).to.equal(
        part === 'retry' ? 'Erneut versuchen' : 'Schließen',
      );
    });
  }

  it('a frame owed focus does not take it from what the user focused while it was minting', async () => {
    const { element, calls, clock } = await mountFramed();
    const input = await fixture<HTMLInputElement>(html`<input />`);
    frameOf(element)?.focus();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).reject(failure('internal_error', true));
    await settle(element);
    expect(element.state).to.equal('waiting');
    input.focus();
    await clock.tick(2_000);
    calls[2]?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(document.activeElement?.localName).to.equal('input');
  });

  it('a frame owed focus does not take it after the user clicked plain text on the page', async () => {
    const { element, calls } = await tryAgainByKeyboard();
    const text = document.createElement('p');
    text.textContent = 'Plain text, nothing to focus';
    document.body.prepend(text);
    try {
      const { x, y } = text.getBoundingClientRect();
      await sendMouse({ type: 'click', position: [Math.ceil(x) + 2, Math.ceil(y) + 2] });
      expect(document.activeElement === document.body, 'the click left focus on the body').to.equal(
        true,
      );
      (await mintCall(calls, 1)).resolve(session());
      await settle(element);
      expect(element.state).to.equal('framed');
      expect(focusedIn(element)).to.equal('nothing');
    } finally {
      text.remove();
    }
  });

  it('a click on the status area while loading, with nothing handed to it, does not send focus into the frame', async () => {
    const { element, calls } = await mount();
    await clickStatusArea(element);
    expect(focusedIn(element), 'the area takes focus only from a hold').to.equal('nothing');
    calls[0]?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(focusedIn(element)).not.to.equal('iframe frame');
  });

  it('focus held for Try again is forgotten when the element is moved: a later click on the status area is not handed on', async () => {
    const { element, calls } = await tryAgainByKeyboard();
    const parent = element.parentElement as HTMLElement;
    element.remove();
    parent.append(element);
    await settle(element);
    expect(document.activeElement === document.body, 'focus fell with the element').to.equal(true);
    await clickStatusArea(element);
    expect(focusedIn(element)).to.equal('nothing');
    calls.at(-1)?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(focusedIn(element)).to.equal('nothing');
  });

  // The area is focusable only while it holds focus: left focusable after a first hold, it took
  // a modal dialog's focus again once the dialog reopened.
  it('after Try again in a modal dialog, the dialog reopened does not focus the status area', async () => {
    const { dialog, stub, element } = await inDialog();
    dialog.showModal();
    (await mintCall(stub.calls, 0)).reject(failure('unknown'));
    await settle(element);
    const retry = statusOf(element).querySelector<HTMLButtonElement>('[part=retry]');
    retry?.focus();
    retry?.click();
    (await mintCall(stub.calls, 1)).resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    dialog.close();
    dialog.showModal();
    expect(focusedIn(element)).not.to.equal('div status');
    expect(statusOf(element).hasAttribute('tabindex')).to.equal(false);
    dialog.close();
  });

  // A modal dialog focuses the first focusable node in it: a status area focusable at all times
  // took that focus (an empty live region, no ring), and an element made as the dialog opened then
  // handed it to its frame before the form's page had loaded, so the first Tab skipped the form.
  it('a modal dialog holding the element does not focus its status area, framed or made as it opens', async () => {
    const { dialog, stub, element } = await inDialog();
    (await mintCall(stub.calls, 0)).resolve(session());
    await settle(element);
    dialog.showModal();
    expect(focusedIn(element)).not.to.equal('div status');
    dialog.close();
    element.remove();
    dialog.prepend(element); // as the dialog opens, in the same task: before its first update
    dialog.showModal();
    (await mintCall(stub.calls, 1)).resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(focusedIn(element)).to.equal('nothing');
    expect(document.activeElement?.textContent).to.equal('Close');
    dialog.close();
  });

  it('a frame owed focus takes it when nothing else has it', async () => {
    const { element, calls } = await mountFramed();
    frameOf(element)?.focus();
    post(errorMessage('error'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expect(focusedIn(element)).to.equal('iframe frame');
  });
});
