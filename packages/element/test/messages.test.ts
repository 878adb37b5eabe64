import { expect, fixture, html } from '@open-wc/testing';
import { type FormEmbedElement, messages } from '../src/index.js';
import {
  embedOrigin,
  embedUrl,
  errorMessage,
  frameOf,
  mintCall,
  mountFramed,
  post,
  record,
  session,
  sessionStub,
  settle,
  statusOf,
  when,
} from './helpers.js';

describe('<form-embed> embed messages', () => {
  const forged: [
    string,
    (frame: HTMLIFrameElement) => [unknown, string, MessageEventSource | null],
  ][] = [
    ['a wrong origin', (f) => [errorMessage(), 'https://evil.example', f.contentWindow]],
    ['the right origin from another frame', () => [errorMessage(), embedOrigin, other()]],
    ['the right origin from this window', () => [errorMessage(), embedOrigin, window]],
    ['the right origin and no source', () => [errorMessage(), embedOrigin, null]],
    ['an extra field', (f) => [{ ...errorMessage(), token: 'h' }, embedOrigin, f.contentWindow]],
    [
      'a wrong type',
      (f) => [{ type: 'service:form', state: 'error' }, embedOrigin, f.contentWindow],
    ],
    [
      'an unknown state',
      (f) => [{ type: 'service:form-session', state: 'x' }, embedOrigin, f.contentWindow],
    ],
    ['a string', (f) => [JSON.stringify(errorMessage()), embedOrigin, f.contentWindow]],
    ['null data', (f) => [null, embedOrigin, f.contentWindow]],
    ['an array', (f) => [['service:form-session', 'error'], embedOrigin, f.contentWindow]],
  ];
  let otherFrame: HTMLIFrameElement | undefined;
  const other = () => otherFrame?.contentWindow ?? null;
  afterEach(() => otherFrame?.remove());

  for (const [what, forge] of forged) {
    it(`a message with ${what} never causes a remint`, async () => {
      otherFrame = document.createElement('iframe');
      otherFrame.src = embedUrl();
      document.body.append(otherFrame);
      const { element, calls } = await mountFramed();
      const events = record(element, 'form-embed-remint');
      post(...forge(frameOf(element) as HTMLIFrameElement));
      await settle(element);
      expect(events).to.have.length(0);
      expect(calls).to.have.length(1);
      expect(element.state).to.equal('framed');
    });
  }

  for (const state of ['error', 'expired'] as const) {
    it(`the exact message with state ${state} from the current frame fires form-embed-remint and remints at once`, async () => {
      const { element, calls } = await mountFramed();
      const remint = when(element, 'form-embed-remint');
      post(errorMessage(state), embedOrigin, frameOf(element)?.contentWindow ?? null);
      const event = await remint;
      expect(event.reason).to.equal(state);
      // At once: within the task's microtasks (mintCall waits on no clock).
      await mintCall(calls, 1);
      expect(calls).to.have.length(2);
      expect(element.state).to.equal('minting');
    });
  }

  it('a real postMessage from the framed page triggers a remint', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    const remint = when(element, 'form-embed-remint');
    stub.calls[0]?.resolve(session({ embedUrl: embedUrl('expired') }));
    const event = await remint;
    expect(event.reason).to.equal('expired');
    await mintCall(stub.calls, 1);
    expect(stub.calls).to.have.length(2);
  });

  it('preventing form-embed-remint keeps the frame and mints nothing', async () => {
    const { element, calls } = await mountFramed();
    const frame = frameOf(element);
    element.addEventListener('form-embed-remint', (event) => event.preventDefault());
    post(errorMessage(), embedOrigin, frame?.contentWindow ?? null);
    await settle(element);
    expect(calls).to.have.length(1);
    expect(frameOf(element) === frame, 'the same frame').to.equal(true);
    expect(element.state).to.equal('framed');
  });

  it('a cancelled remint counts for nothing: a page that cancels every one keeps its frame, told of each', async () => {
    const { element, calls } = await mountFramed();
    const frame = frameOf(element);
    const remints = record(element, 'form-embed-remint');
    element.addEventListener('form-embed-remint', (event) => event.preventDefault());
    for (let i = 0; i < 8; i++) post(errorMessage(), embedOrigin, frame?.contentWindow ?? null);
    await settle(element);
    expect(remints).to.have.length(8);
    expect(calls).to.have.length(1);
    expect(frameOf(element) === frame, 'the same frame').to.equal(true);
    expect(element.state).to.equal('framed');
  });

  it('remints a listener makes itself count towards the bound: a page that always does is stopped', async () => {
    const { element, calls } = await mountFramed();
    element.addEventListener('form-embed-remint', (event) => {
      event.preventDefault();
      element.remint();
    });
    for (let i = 1; i <= 5; i++) {
      post(errorMessage(), embedOrigin, frameOf(element)?.contentWindow ?? null);
      // The fifth, past the bound, stops the element before its mint goes out.
      if (i < 5) (await mintCall(calls, i)).resolve(session());
      await settle(element);
    }
    expect(calls).to.have.length(5);
    expect(element.state).to.equal('failed');
    expect(statusOf(element).textContent).to.contain(messages.storm);
  });

  it('several elements on a page never react to each other’s frames', async () => {
    const a = sessionStub();
    const b = sessionStub();
    const container = await fixture<HTMLDivElement>(
      html`<div>
        <form-embed id="a" form-id="f1" .fetchSession=${a.fetchSession}></form-embed>
        <form-embed id="b" form-id="f1" .fetchSession=${b.fetchSession}></form-embed>
      </div>`,
    );
    const elementA = container.querySelector('#a') as FormEmbedElement;
    const elementB = container.querySelector('#b') as FormEmbedElement;
    const remintsB = record(elementB, 'form-embed-remint');
    b.calls[0]?.resolve(session());
    const remintA = when(elementA, 'form-embed-remint');
    // A's framed page really posts `error` to this window; only A may remint.
    a.calls[0]?.resolve(session({ embedUrl: embedUrl('error') }));
    await remintA;
    await settle(elementB);
    expect(a.calls).to.have.length(2);
    expect(b.calls).to.have.length(1);
    expect(remintsB).to.have.length(0);
    expect(elementB.state).to.equal('framed');
  });

  it('a form-embed-remint listener that calls remint() itself makes one mint, not two', async () => {
    const { element, calls } = await mountFramed();
    element.addEventListener('form-embed-remint', () => element.remint());
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    await settle(element);
    expect(calls).to.have.length(2);
    expect(calls[1]?.signal.aborted).to.equal(false);
  });

  it('a form-embed-remint listener that sets requestInit and calls remint() makes one mint, not two', async () => {
    const { element, calls } = await mountFramed();
    element.addEventListener('form-embed-remint', () => {
      element.requestInit = { headers: { 'X-CSRF-Token': 'new' } };
      element.remint();
    });
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    await settle(element);
    expect(calls).to.have.length(2);
    expect(calls[1]?.signal.aborted).to.equal(false);
  });
});
