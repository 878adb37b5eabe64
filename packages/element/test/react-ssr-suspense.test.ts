import { expect } from '@open-wc/testing';
import { createElement, Suspense } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { FormEmbed } from '../src/react.js';
import { pageWith, recordingTransport } from './react-ssr-helpers.js';

// On its own page, before anything registers the tag. Hydrated as a page is, not inside act():
// React hydrates a <Suspense> boundary in a later task than the rest.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = false;

describe('<FormEmbed> in a <Suspense> boundary that hydrates later', () => {
  it('never fails for want of its form while the first one registers the tag', async () => {
    const transport = recordingTransport();
    const { fetchSession } = transport;
    const app = createElement(
      'main',
      null,
      createElement(FormEmbed, { formId: 'f1', fetchSession }),
      createElement(
        Suspense,
        { fallback: null },
        createElement(FormEmbed, { formId: 'f2', fetchSession }),
      ),
    );
    const { container, errors } = pageWith(renderToString(app));
    const root = hydrateRoot(container, app);
    await transport.until(2);
    expect(transport.requests.sort()).to.deep.equal(['f1', 'f2']);
    expect(errors).to.deep.equal([]);
    root.unmount();
    container.remove();
  });
});
