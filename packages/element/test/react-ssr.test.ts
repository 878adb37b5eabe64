import type { MintResponse } from '@form-embed/protocol/browser';
import { expect } from '@open-wc/testing';
import { act, createElement } from 'react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import type { FetchSession, FormEmbedElement } from '../src/index.js';
import { FormEmbed } from '../src/react.js';

// On its own page, without helpers.ts: that module registers the tag, which this file must not.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('<FormEmbed> rendered on a server, then hydrated', () => {
  it('stays inert until hydration has set its props, then mints once, with all of them', async () => {
    const requests: { formId?: string; headers?: unknown }[] = [];
    const requestInit = { headers: { 'X-CSRF-Token': 't' } };
    const fetchSession: FetchSession = (target) => {
      requests.push({ formId: target.kind === 'form' ? target.formId : undefined });
      return new Promise<MintResponse>(() => {});
    };
    const errors: string[] = [];
    const container = document.createElement('div');
    container.addEventListener('form-embed-error', (event) => errors.push(event.code));
    document.body.append(container);
    const props = { formId: 'f1', fetchSession, requestInit };

    container.innerHTML = renderToString(createElement(FormEmbed, props));
    // The page's scripts ran and a task passed: nothing has minted or failed yet.
    await new Promise((resolve) => setTimeout(resolve));
    const element = container.querySelector('form-embed') as FormEmbedElement;
    // A boolean: a failing equal() against a class disconnects the test browser unreported.
    expect(customElements.get('form-embed') === undefined, 'registered before any mount').to.equal(
      true,
    );
    expect(element.getAttribute('state')).to.equal(null);

    let root: Root | undefined;
    await act(() => {
      root = hydrateRoot(container, createElement(FormEmbed, props));
    });
    await element.updateComplete;
    expect(element.state).to.equal('minting');
    expect(requests).to.deep.equal([{ formId: 'f1' }]);
    expect(element.requestInit === requestInit, 'requestInit is set').to.equal(true);
    expect(errors).to.deep.equal([]);
    await act(() => root?.unmount());
    container.remove();
  });
});
