import { expect } from '@open-wc/testing';
import { act, createElement } from 'react';
import { createRoot } from 'react-dom/client';
import type { FormEmbedElement } from '../src/index.js';
import { FormEmbed } from '../src/react.js';
import { recordingTransport } from './react-ssr-helpers.js';

// On its own page, before anything registers the tag: the first <FormEmbed> registers it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('<FormEmbed> ref, on the first mount of the page', () => {
  it('receives the registered element, remint() and all', async () => {
    const { fetchSession } = recordingTransport();
    const seen: string[] = [];
    const ref = (element: FormEmbedElement | null) => {
      if (element) seen.push(typeof element.remint);
    };
    const container = document.createElement('div');
    document.body.append(container);
    const root = createRoot(container);
    await act(() => root.render(createElement(FormEmbed, { formId: 'f1', fetchSession, ref })));
    expect(seen).to.deep.equal(['function']);
    await act(() => root.unmount());
    container.remove();
  });
});
