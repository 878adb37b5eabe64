import { expect } from '@open-wc/testing';
import { act, createElement, createRef, StrictMode, useState, version } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import type { FormEmbedElement } from '../src/index.js';
import { FormEmbed } from '../src/react.js';
import {
  embedOrigin,
  errorMessage,
  failure,
  frameOf,
  mintCall,
  post,
  session,
  sessionStub,
  settle,
} from './helpers.js';

// React's act() flushes each render before it resolves.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Every file that tests <FormEmbed> runs twice: on React 19, and on React 18 in the `react-18`
// group of web-test-runner.config.mjs, whose page says so here.
const expectedReactMajor = (globalThis as { expectedReactMajor?: number }).expectedReactMajor ?? 19;

describe('<FormEmbed> (@form-embed/element/react)', () => {
  let container: HTMLElement;
  let root: Root;
  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
    root = createRoot(container);
  });
  afterEach(async () => {
    await act(() => root.unmount());
    container.remove();
  });

  async function render(props: Parameters<typeof FormEmbed>[0]) {
    await act(() => root.render(createElement(FormEmbed, props)));
    const element = container.querySelector<FormEmbedElement>('form-embed');
    if (!element) throw new Error('no <form-embed> rendered');
    await settle(element);
    return element;
  }

  it(`runs on React ${expectedReactMajor}`, () => {
    expect(version.split('.')[0]).to.equal(String(expectedReactMajor));
  });

  it('in StrictMode it mints once and its listener props hear their events; a new key mounts a new element, which mints again', async () => {
    const { calls, fetchSession } = sessionStub();
    const heard: string[] = [];
    const form = createRef<FormEmbedElement>();
    const page = (key: string) =>
      createElement(
        StrictMode,
        null,
        createElement(FormEmbed, {
          key,
          ref: form,
          formId: 'f1',
          fetchSession,
          onSession: (event) => heard.push(`${event.type} ${event.attempt}`),
          onError: (event) => heard.push(`${event.type} ${event.code} ${event.willRetry}`),
          onRemint: (event) => heard.push(`${event.type} ${event.reason}`),
        }),
      );
    await act(() => root.render(page('signed-in')));
    const first = form.current as FormEmbedElement;
    await settle(first);
    expect(calls, 'one mint, whatever StrictMode mounts twice').to.have.length(1);
    calls[0]?.reject(failure('form_not_found'));
    await settle(first);
    first.remint();
    (await mintCall(calls, 1)).resolve(session());
    await settle(first);
    post(errorMessage('error'), embedOrigin, frameOf(first)?.contentWindow ?? null);
    (await mintCall(calls, 2)).resolve(session());
    await settle(first);
    await act(() => root.render(page('signed-out')));
    const second = form.current as FormEmbedElement;
    await settle(second);
    expect(second !== first && !first.isConnected, 'a new element').to.equal(true);
    expect(calls, 'the new element minted once').to.have.length(4);
    expect(heard).to.deep.equal([
      'form-embed-error form_not_found false',
      'form-embed-session 1',
      'form-embed-remint error',
      'form-embed-session 1',
    ]);
  });

  it('sets the props that have no attribute as properties, so the element mints through them', async () => {
    const { calls, fetchSession } = sessionStub();
    const requestInit = { headers: { 'X-CSRF-Token': 't' } };
    const messages = { frame: 'Wrapper' };
    const allowedEndpointOrigins = ['https://portal.example'];
    const element = await render({
      formId: 'f1',
      fetchSession,
      requestInit,
      messages,
      allowedEndpointOrigins,
    });
    // A boolean: a failing equal() against a function disconnects the test browser unreported.
    expect(element.fetchSession === fetchSession, 'fetchSession is the property').to.equal(true);
    expect(element.requestInit).to.equal(requestInit);
    expect(element.messages).to.equal(messages);
    expect(element.allowedEndpointOrigins).to.equal(allowedEndpointOrigins);
    expect(element.getAttributeNames()).to.not.include('requestinit');
    expect(calls).to.have.length(1);
    calls[0]?.resolve(session());
    await settle(element);
    expect(frameOf(element)?.title).to.equal('Wrapper');
  });

  it('a click handler that calls remint() and sets another form sends one mint, for that form: React sets it in a microtask after the handler', async () => {
    const { calls, fetchSession } = sessionStub();
    const form = createRef<FormEmbedElement>();
    function Page() {
      const [formId, setFormId] = useState('f1');
      const onClick = () => {
        form.current?.remint();
        setFormId('f2');
      };
      return createElement(
        'div',
        null,
        createElement('button', { type: 'button', onClick }, 'Other form'),
        createElement(FormEmbed, { ref: form, formId, fetchSession }),
      );
    }
    await act(() => root.render(createElement(Page)));
    const element = form.current as FormEmbedElement;
    await settle(element);
    calls[0]?.resolve(session());
    await settle(element);
    // A real click, outside act(): React commits it in a microtask of its own, as on a page.
    const environment = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
    environment.IS_REACT_ACT_ENVIRONMENT = false;
    try {
      container.querySelector('button')?.click();
      await settle(element);
    } finally {
      environment.IS_REACT_ACT_ENVIRONMENT = true;
    }
    expect(calls.slice(1).map((call) => call.target)).to.deep.equal([
      { kind: 'form', formId: 'f2' },
    ]);
  });

  it('onNotice hears each lapse once, before onSession of the new frame', async () => {
    const { calls, fetchSession } = sessionStub();
    const heard: string[] = [];
    const element = await render({
      formId: 'f1',
      fetchSession,
      onSession: () => heard.push('session'),
      onNotice: (event) => heard.push(`notice:${event.reason}`),
    });
    calls[0]?.resolve(session());
    await settle(element);
    for (const call of [1, 2]) {
      post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
      (await mintCall(calls, call)).resolve(session());
      await settle(element);
    }
    expect(heard).to.deep.equal([
      'session',
      'notice:expired',
      'session',
      'notice:expired',
      'session',
    ]);
  });
});
