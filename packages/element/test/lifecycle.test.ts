import { expect, fixture, html } from '@open-wc/testing';
import { FormEmbedElement } from '../src/index.js';
import {
  embedOrigin,
  errorMessage,
  frameOf,
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
} from './helpers.js';

describe('<form-embed> lifecycle', () => {
  it('mints once on connect with loading="eager" and frames the session', async () => {
    const { element, calls } = await mount();
    expect(calls).to.have.length(1);
    expect(calls[0]?.target).to.deep.equal({ kind: 'form', formId: 'f1' });
    expect(element.state).to.equal('minting');
    calls[0]?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(element.getAttribute('state')).to.equal('framed');
    expect(frameOf(element)?.getAttribute('part')).to.equal('frame');
  });

  for (const [what, times] of [
    ['remint()', 1],
    ['remint() twice', 2],
  ] as const) {
    it(`${what} in the task that connected it sends one request, not ${times + 1}`, async () => {
      const stub = sessionStub();
      const element = document.createElement('form-embed') as FormEmbedElement;
      element.setAttribute('form-id', 'f1');
      element.fetchSession = stub.fetchSession;
      document.body.append(element);
      try {
        for (let i = 0; i < times; i++) element.remint();
        await settle(element);
        expect(stub.calls).to.have.length(1);
        expect(stub.calls[0]?.signal.aborted).to.equal(false);
      } finally {
        element.remove();
      }
    });
  }

  // A mint aborted in the task that asked for it still reaches the middleware in Chromium, and
  // spends a handle and the user's and the organisation's mint limits.
  for (const [what, change, formId] of [
    ['formId set', (element: FormEmbedElement) => (element.formId = 'f2'), 'f2'],
    ['form-id set', (element: FormEmbedElement) => element.setAttribute('form-id', 'f2'), 'f2'],
    ['a new endpoint', (element: FormEmbedElement) => (element.endpoint = '/portal'), 'f1'],
    // As a framework sets it, in a microtask of its own after the handler (React 19 after a
    // click: react.test.ts).
    [
      'formId set a microtask later',
      (element: FormEmbedElement) => queueMicrotask(() => (element.formId = 'f2')),
      'f2',
    ],
  ] as const) {
    for (const remintFirst of [false, true]) {
      const order = remintFirst ? `remint() and then ${what}` : `${what} and remint()`;
      it(`${order} in one task: one mint, for the form then set, framed`, async () => {
        const { element, calls } = await mountFramed();
        if (remintFirst) element.remint();
        change(element);
        if (!remintFirst) element.remint();
        await settle(element);
        expect(calls.slice(1).map((call) => call.target)).to.deep.equal([{ kind: 'form', formId }]);
        expect(calls[1]?.signal.aborted).to.equal(false);
        calls[1]?.resolve(session());
        await settle(element);
        expect(element.state).to.equal('framed');
      });
    }
  }

  // Two sign-in listeners, or two effects of a page that each call remint().
  for (const [after, change] of [
    ['', () => {}],
    [
      ', after a change that starts no run (a new requestInit)',
      (element: FormEmbedElement) => (element.requestInit = { headers: { 'X-CSRF-Token': 'new' } }),
    ],
  ] as const) {
    it(`remint() twice in one task${after}: one mint, framed`, async () => {
      const { element, calls } = await mountFramed();
      change(element);
      element.remint();
      element.remint();
      await settle(element);
      expect(calls).to.have.length(2);
      expect(calls[1]?.signal.aborted).to.equal(false);
      calls[1]?.resolve(session());
      await settle(element);
      expect(element.state).to.equal('framed');
    });
  }

  it('remint() and then removal in one task: no mint', async () => {
    const { element, calls } = await mountFramed();
    element.remint();
    element.remove();
    await settle();
    expect(calls).to.have.length(1);
    expect(element.state).to.equal('idle');
  });

  it('mints a Core form by core-slug', async () => {
    const stub = sessionStub();
    await fixture(
      html`<form-embed core-slug="reset-password" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    expect(stub.calls.map((c) => c.target)).to.deep.equal([
      { kind: 'coreForm', slug: 'reset-password' },
    ]);
  });

  it('keeps a single mint in flight: setting the same attributes again mints nothing more', async () => {
    const { element, calls } = await mount();
    element.setAttribute('form-id', 'f1');
    element.frameTitle = 'Another title';
    await settle(element);
    expect(calls).to.have.length(1);
  });

  it('framed, a form-id set elsewhere and back in one task, or removed and set again (a morph), keeps the frame and what was typed in it: no mint', async () => {
    const { element, calls } = await mountFramed();
    const first = frameOf(element);
    element.formId = 'f2';
    element.formId = 'f1';
    await settle(element);
    element.removeAttribute('form-id');
    element.setAttribute('form-id', 'f1');
    await settle(element);
    expect(calls).to.have.length(1);
    expect(frameOf(element)).to.equal(first);
  });

  it('changing form-id aborts the mint in flight and mints the new form', async () => {
    const { element, calls } = await mount();
    element.setAttribute('form-id', 'f2');
    await settle(element);
    expect(calls[0]?.signal.aborted).to.equal(true);
    expect(calls.map((c) => c.target)).to.deep.equal([
      { kind: 'form', formId: 'f1' },
      { kind: 'form', formId: 'f2' },
    ]);
    calls[0]?.resolve(session());
    calls[1]?.resolve(session({ embedUrl: `${location.origin}/test/fixtures/embed-page.html?f2` }));
    await settle(element);
    expect(frameOf(element)?.src).to.contain('?f2');
  });

  it("a page's fetchSession that ignores the signal and answers an ended run anyway: that answer frames nothing, the new form's frame is the only one", async () => {
    const answers: ((answer: ReturnType<typeof session>) => void)[] = [];
    const { element } = await mount({
      fetchSession: () => new Promise((resolve) => answers.push(resolve)),
    });
    element.setAttribute('form-id', 'f2');
    await settle(element);
    expect(answers).to.have.length(2);
    answers[0]?.(session());
    answers[1]?.(session({ embedUrl: `${location.origin}/test/fixtures/embed-page.html?f2` }));
    await settle(element);
    const framed = [...(element.shadowRoot?.querySelectorAll('iframe') ?? [])].map((f) => f.src);
    expect(framed).to.have.length(1);
    expect(framed[0]).to.contain('?f2');
  });

  it('changing core-slug aborts the mint in flight', async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed core-slug="a" .fetchSession=${stub.fetchSession}></form-embed>`,
    );
    element.coreSlug = 'b';
    await settle(element);
    expect(stub.calls[0]?.signal.aborted).to.equal(true);
    expect(stub.calls[1]?.target).to.deep.equal({ kind: 'coreForm', slug: 'b' });
  });

  it('disconnecting aborts the mint in flight, and an answer arriving later frames nothing', async () => {
    const { element, calls } = await mount();
    element.remove();
    expect(calls[0]?.signal.aborted).to.equal(true);
    expect(element.state).to.equal('idle');
    calls[0]?.resolve(session());
    await settle(element);
    expect(frameOf(element) === null, 'no frame').to.equal(true);
  });

  it('removed, then given another form-id, it mints nothing until it is connected again', async () => {
    const { element, calls } = await mount();
    calls[0]?.resolve(session());
    await settle(element);
    const parent = element.parentElement as HTMLElement;
    element.remove();
    element.setAttribute('form-id', 'f2');
    await element.updateComplete;
    await mintsSent();
    expect(calls).to.have.length(1);
    parent.append(element);
    (await mintCall(calls, 1)).resolve(session());
    expect(calls[1]?.target).to.deep.equal({ kind: 'form', formId: 'f2' });
  });

  it('reconnecting starts afresh with a new mint and a new frame', async () => {
    const { element, calls } = await mount();
    calls[0]?.resolve(session());
    await settle(element);
    const first = frameOf(element);
    const parent = element.parentElement as HTMLElement;
    element.remove();
    parent.append(element);
    (await mintCall(calls, 1)).resolve(session());
    expect(calls).to.have.length(2);
    await settle(element);
    expect(frameOf(element) !== first, 'a new frame').to.equal(true);
  });

  it('moved with moveBefore (a reorder, a morph), it keeps its frame and what was typed in it, mints nothing, and still remints', async () => {
    const { element, calls } = await mountFramed();
    const frame = frameOf(element) as HTMLIFrameElement;
    const loaded = frame.contentDocument;
    if (loaded?.URL !== frame.src || loaded.readyState !== 'complete') {
      await new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
    }
    const page = frame.contentWindow as Window & { typed?: string };
    page.typed = 'half a form';
    const elsewhere = document.createElement('section');
    document.body.append(elsewhere);
    (elsewhere as Element & { moveBefore(node: Node, child: Node | null): void }).moveBefore(
      element,
      null,
    );
    await settle(element);
    expect(element.parentElement === elsewhere).to.equal(true);
    expect(calls).to.have.length(1);
    expect(element.state).to.equal('framed');
    expect(frameOf(element) === frame).to.equal(true);
    expect(page.typed).to.equal('half a form');
    post(errorMessage('expired'), embedOrigin, frame.contentWindow);
    await settle(element);
    expect(calls).to.have.length(2);
    elsewhere.remove();
  });

  for (const [what, attributes] of [
    ['both form-id and core-slug', 'form-id="f1" core-slug="c1"'],
    ['neither form-id nor core-slug', ''],
  ] as const) {
    it(`${what} fails with invalid_request and mints nothing`, async () => {
      const stub = sessionStub();
      const container = await fixture<HTMLDivElement>(html`<div></div>`);
      const element = document.createElement('form-embed');
      element.fetchSession = stub.fetchSession;
      if (attributes.includes('form-id')) element.setAttribute('form-id', 'f1');
      if (attributes.includes('core-slug')) element.setAttribute('core-slug', 'c1');
      const events = record(element, 'form-embed-error');
      container.append(element);
      await settle(element);
      expect(stub.calls).to.have.length(0);
      expect(element.state).to.equal('failed');
      expect(events).to.have.length(1);
      expect(events[0]).to.include({ code: 'invalid_request', retryable: false, willRetry: false });
      expect(statusOf(element).textContent).to.contain('This form is not set up correctly.');
    });
  }

  // A lone surrogate has no URL encoding (encodeURIComponent throws): sent, it failed as a network
  // failure and was retried as `unavailable`.
  it('a form-id cut inside an emoji (a lone surrogate) fails with invalid_request and mints nothing', async () => {
    const stub = sessionStub();
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const element = document.createElement('form-embed');
    element.fetchSession = stub.fetchSession;
    element.formId = 'form-😀'.slice(0, -1);
    const events = record(element, 'form-embed-error');
    container.append(element);
    await settle(element);
    expect(stub.calls).to.have.length(0);
    expect(element.state).to.equal('failed');
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ code: 'invalid_request', retryable: false, willRetry: false });
  });

  it('loading="lazy" mints only when the element nears the viewport', async () => {
    const { element, container, ...stub } = await mountLazyFarAway();
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await settle(element);
    expect(stub.calls).to.have.length(0);
    expect(element.state).to.equal('idle');
    container.scrollTop = 2800;
    for (let i = 0; i < 20 && stub.calls.length === 0; i++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    expect(stub.calls).to.have.length(1);
  });

  it('loading="lazy" waits for the viewport before the first mint only: remint() scrolled out of view mints at once', async () => {
    const { element, container, calls } = await mountLazyFarAway();
    container.scrollTop = 3000;
    for (let i = 0; i < 20 && calls.length === 0; i++) {
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    (await mintCall(calls, 0)).resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    container.scrollTop = 0;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    element.remint();
    await mintsSent();
    expect(calls).to.have.length(2);
  });

  // The observer's rootMargin widens the viewport only: in a scrolled box, the element minted
  // once in the box's view, so each form there showed "Loading the form…" as it scrolled in.
  it('loading="lazy" in a scrolled box mints within 200px of the box’s view, not farther', async () => {
    const { element, container, ...stub } = await mountLazyFarAway();
    const frames = async (count: number) => {
      for (let i = 0; i < count; i++) await new Promise((r) => requestAnimationFrame(r));
    };
    // The element's top edge, 3000px down the box: 250px, then 100px, below its 300px view.
    container.scrollTop = 3000 - 300 - 250;
    await frames(4);
    await settle(element);
    expect(stub.calls).to.have.length(0);
    container.scrollTop = 3000 - 300 - 100;
    for (let i = 0; i < 20 && stub.calls.length === 0; i++) await frames(1);
    expect(stub.calls).to.have.length(1);
    expect(element.getBoundingClientRect().top).to.be.greaterThan(
      container.getBoundingClientRect().bottom + 50,
    );
  });

  // Next.js 16's cacheComponents keeps visited routes hidden and reorders them by removing and
  // inserting (packages/element/README.md, React 18 and 19): lazy is what keeps those from minting.
  it('loading="lazy" hidden (display: none) and moved by removing and inserting mints only once shown', async () => {
    const stub = sessionStub();
    const [hidden, other] = (
      await fixture<HTMLDivElement>(
        html`<div><section style="display: none">
          <form-embed form-id="f1" loading="lazy" .fetchSession=${stub.fetchSession}></form-embed>
        </section><section></section></div>`,
      )
    ).children as unknown as [HTMLElement, HTMLElement];
    const element = hidden.querySelector('form-embed') as FormEmbedElement;
    const frames = async (count: number) => {
      for (let i = 0; i < count; i++) await new Promise((r) => requestAnimationFrame(r));
    };
    for (let move = 0; move < 3; move++) {
      other.after(hidden); // a reorder of the routes
      hidden.after(other);
      await frames(3);
      await settle(element);
    }
    expect(stub.calls).to.have.length(0);
    expect(element.state).to.equal('idle');
    hidden.style.display = '';
    for (let i = 0; i < 20 && stub.calls.length === 0; i++) await frames(1);
    expect(stub.calls).to.have.length(1);
  });

  it('define() registers a tag once and leaves a taken tag alone', () => {
    class PortalFormEmbed extends FormEmbedElement {}
    // Typed as the class it was called on, not the element's internal base class, whose
    // instances have no remint() or state.
    const Defined: typeof PortalFormEmbed = PortalFormEmbed.define('portal-form-embed');
    expect(Defined).to.equal(PortalFormEmbed);
    expect(customElements.get('portal-form-embed')).to.equal(PortalFormEmbed);
    expect(() => PortalFormEmbed.define('portal-form-embed')).to.not.throw();
    expect(customElements.get('form-embed')).to.equal(FormEmbedElement);
  });

  it('state is read-only', async () => {
    const { element } = await mount();
    expect(() => {
      (element as unknown as { state: string }).state = 'framed';
    }).to.throw(TypeError);
    expect(element.state).to.equal('minting');
  });

  it('loading="lazy" where IntersectionObserver is missing (a test DOM, say) mints at once', async () => {
    const original = window.IntersectionObserver;
    // @ts-expect-error: the browser is made to lack IntersectionObserver for this test.
    delete window.IntersectionObserver;
    try {
      const stub = sessionStub();
      await fixture(
        html`<form-embed form-id="f1" loading="lazy" .fetchSession=${stub.fetchSession}></form-embed>`,
      );
      expect(stub.calls).to.have.length(1);
    } finally {
      window.IntersectionObserver = original;
    }
  });
});
