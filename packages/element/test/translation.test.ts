import { expect } from '@open-wc/testing';
import { FormEmbedElement, messages } from '../src/index.js';
import de from '../src/locales/de.js';
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
  settle,
  statusOf,
  stubOnLine,
} from './helpers.js';

/** Everything a person can read or hear of the element: its status and its frame's name. */
function readable(element: FormEmbedElement) {
  return `${statusOf(element).textContent}|${frameOf(element)?.title ?? ''}`;
}

describe('<form-embed> messages', () => {
  afterEach(() => {
    FormEmbedElement.messages = messages;
  });

  // Checked by the repository's typecheck: each write below is a type error, or the typecheck
  // fails on an unused @ts-expect-error. FormEmbedElement.messages is the English object itself,
  // so a write through it changed what every other set falls back to.
  it('the English messages, a pack and the shared default are read-only to TypeScript: a page assigns its own', () => {
    const writes = [
      () => {
        // @ts-expect-error: read-only
        messages.loading = 'x';
      },
      () => {
        // @ts-expect-error: read-only
        FormEmbedElement.messages.loading = 'x';
      },
      () => {
        // @ts-expect-error: read-only
        de.loading = 'x';
      },
    ];
    expect(writes).to.have.length(3);
    expect(FormEmbedElement.messages).to.equal(messages);
  });

  it("one element's messages override keys of the defaults; other elements keep them", async () => {
    const { element } = await mount();
    element.messages = { loading: 'Un momento' };
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Un momento');
    const other = await mount();
    expect(statusOf(other.element).textContent).to.equal('Loading the form…');
  });

  it('FormEmbedElement.messages sets the default for every element, wholly', async () => {
    FormEmbedElement.messages = { ...messages, loading: 'Moment bitte' };
    const { element } = await mount();
    expect(statusOf(element).textContent).to.equal('Moment bitte');
  });

  it('FormEmbedElement.messages given in part keeps the English of the keys it leaves out', async () => {
    FormEmbedElement.messages = { retry: 'Nochmal' };
    const { element, calls } = await mount();
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Something went wrong.Nochmal');
  });

  it('a page may word one code apart from its group', async () => {
    const { element, calls } = await mount();
    element.messages = { user_not_found: 'Ask IT to add you to the directory.' };
    calls[0]?.reject(failure('user_not_found'));
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Ask IT to add you to the directory.');
  });

  it('a message is set as text, never parsed as HTML', async () => {
    const { element, calls } = await mount();
    element.messages = {
      unknown: '<img src=x onerror="window.pwned=1">Oops',
      retry: '<b>Again</b>',
    };
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    const status = statusOf(element);
    expect(status.querySelector('img, b') === null, 'no markup').to.equal(true);
    expect(status.textContent).to.equal('<img src=x onerror="window.pwned=1">Oops<b>Again</b>');
  });

  it('changing messages while a status shows rewrites it, and the frame title with it', async () => {
    const { element } = await mountFramed();
    expect(frameOf(element)?.title).to.equal('Embedded form');
    element.messages = de;
    await settle(element);
    expect(frameOf(element)?.title).to.equal('Eingebettetes Formular');
    element.setAttribute('frame-title', 'Laptop bestellen');
    await settle(element);
    expect(frameOf(element)?.title).to.equal('Laptop bestellen');
  });

  it('changing messages while a failure shows words it as the new messages do, a code worded apart or its group', async () => {
    const { element, calls } = await mount();
    element.messages = { user_not_found: 'Ask IT to add you to the directory.' };
    calls[0]?.reject(failure('user_not_found'));
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Ask IT to add you to the directory.');
    element.messages = de;
    await settle(element);
    expect(statusOf(element).textContent).to.equal(de.forbidden);
    element.messages = { ...de, user_not_found: 'Bitte wenden Sie sich an die IT.' };
    await settle(element);
    expect(statusOf(element).textContent).to.equal('Bitte wenden Sie sich an die IT.');
  });

  it('a newer code worded apart keeps its Try again when the page changes its messages', async () => {
    const { element, calls } = await mount();
    element.messages = { a_code_of_a_later_release: 'Later.' };
    calls[0]?.reject(failure('a_code_of_a_later_release'));
    await settle(element);
    element.messages = de;
    await settle(element);
    expect(statusOf(element).textContent).to.equal(`${de.unknown}${de.retry}`);
  });
});

describe('<form-embed> on a German page', () => {
  const english = Object.values(messages);
  beforeEach(() => {
    FormEmbedElement.messages = de;
  });
  afterEach(() => {
    FormEmbedElement.messages = messages;
  });

  /** Asserts that `element` reads `expected` (German) and no English sentence at all. */
  function expectGerman(element: FormEmbedElement, ...expected: string[]) {
    const text = readable(element);
    for (const sentence of english) expect(text).to.not.contain(sentence);
    for (const sentence of expected) expect(text).to.contain(sentence);
  }

  it('minting, framed and the frame title are German', async () => {
    const { element, calls } = await mount();
    expectGerman(element, de.loading);
    calls[0]?.resolve(session());
    await settle(element);
    expectGerman(element, de.frame);
  });

  it('waiting to retry, offline and every failure group are German', async () => {
    const { element, calls, clock } = await mount();
    calls[0]?.reject(failure('rate_limited', true));
    await settle(element);
    expectGerman(element, de.retrying);
    for (let i = 1; i < 4; i++) {
      await clock.tick(60_000);
      calls[i]?.reject(failure('rate_limited', true));
      await settle(element);
    }
    expectGerman(element, de.unavailable, de.retry);
    const groups: [string, string][] = [
      ['form_not_found', de.not_found],
      ['user_not_found', de.forbidden],
      ['invalid_api_key', de.invalid_request],
      ['sign_in_required', de.sign_in_required],
      ['seat_limit_reached', de.unknown],
    ];
    for (const [code, text] of groups) {
      const remint = calls.length;
      element.remint();
      (await mintCall(calls, remint)).reject(failure(code));
      await settle(element);
      expectGerman(element, text);
    }
  });

  it('offline is German', async () => {
    const restore = stubOnLine(() => false);
    try {
      const { element, calls, clock } = await mount();
      calls[0]?.reject(failure('unavailable', true));
      await settle(element);
      await clock.tick(60_000);
      expectGerman(element, de.offline);
    } finally {
      restore();
    }
  });

  it('the lapse notice and the remint storm are German', async () => {
    const { element, calls, clock } = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    (await mintCall(calls, 1)).resolve(session());
    await settle(element);
    expectGerman(element, de.lapsed, de.dismiss);
    for (let i = 2; i <= 5; i++) {
      post(errorMessage(), embedOrigin, frameOf(element)?.contentWindow ?? null);
      // The fifth remint is past the bound: the element stops instead of minting.
      if (i < 5) (await mintCall(calls, i)).resolve(session());
      await settle(element);
      await clock.tick(1_000);
    }
    expect(element.state).to.equal('failed');
    expectGerman(element, de.storm, de.retry);
  });
});
