import { expect } from '@open-wc/testing';
import { act, createElement, createRef } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import type { FormEmbedElement } from '../src/index.js';
import { FormEmbed } from '../src/react.js';
import { pageWith, recordingTransport } from './react-ssr-helpers.js';

// On its own page, without helpers.ts: that module registers the tag, which this file must not.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('<FormEmbed> rendered on a server, then hydrated', () => {
  it('renders nothing on the server; once hydrated it mints once, with all its props, and its ref holds the element', async () => {
    const { requests, fetchSession } = recordingTransport();
    const requestInit = { headers: { 'X-CSRF-Token': 't' } };
    const ref = createRef<FormEmbedElement>();
    const app = createElement(
      'main',
      null,
      createElement(FormEmbed, { formId: 'f1', fetchSession, requestInit, ref }),
    );
    const html = renderToString(app);
    expect(html).to.equal('<main></main>');
    const { container, errors } = pageWith(html);
    const warnings: string[] = [];
    const { error } = console;
    console.error = (...args: unknown[]) => warnings.push(args.map(String).join(' '));
    let root: Root | undefined;
    try {
      await act(() => {
        root = hydrateRoot(container, app);
      });
    } finally {
      console.error = error;
    }
    const element = container.querySelector('form-embed') as FormEmbedElement;
    await element.updateComplete;
    expect(element.state).to.equal('minting');
    expect(requests).to.deep.equal(['f1']);
    expect(element.requestInit === requestInit, 'requestInit is set').to.equal(true);
    expect(ref.current === element, 'the ref holds the element').to.equal(true);
    expect(errors).to.deep.equal([]);
    expect(warnings).to.deep.equal([], 'no hydration mismatch');
    await act(() => root?.unmount());
    container.remove();
  });
});
