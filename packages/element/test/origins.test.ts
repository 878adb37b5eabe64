import { expect, fixture, html } from '@open-wc/testing';
import type { FormEmbedElement } from '../src/index.js';
import { frameOf, record, session, settle, statusOf } from './helpers.js';

/** Counts the page's fetches from now on, answering each with a good session. */
function watchFetch() {
  const urls: string[] = [];
  const original = window.fetch;
  window.fetch = async (input) => {
    urls.push(String(input));
    return Response.json(session());
  };
  return { urls, restore: () => Object.assign(window, { fetch: original }) };
}

/** Connects a `<form-embed>` with `attributes` and `properties`, recording its errors from the start. */
async function embed(attributes: string, properties: Partial<FormEmbedElement> = {}) {
  const element = Object.assign(document.createElement('form-embed'), properties);
  for (const [, name, value] of attributes.matchAll(/([\w-]+)="([^"]*)"/g)) {
    element.setAttribute(name as string, value as string);
  }
  const events = record(element, 'form-embed-error');
  await fixture(html`<div></div>`).then((parent) => parent.append(element));
  await settle(element);
  await settle(element);
  return { element, events };
}

describe('<form-embed> origins it trusts', () => {
  let fetched: ReturnType<typeof watchFetch>;
  beforeEach(() => {
    fetched = watchFetch();
  });
  afterEach(() => {
    fetched.restore();
  });

  it('an endpoint on another origin is refused before any request: failed, untrusted_origin', async () => {
    const { element, events } = await embed('form-id="f1" endpoint="https://evil.example/mint"');
    expect(fetched.urls).to.deep.equal([]);
    expect(element.state).to.equal('failed');
    expect(events[0]).to.include({ code: 'untrusted_origin', status: 0, retryable: false });
    expect(statusOf(element).textContent).to.equal('This form is not set up correctly.');
    expect(frameOf(element) === null, 'no frame').to.equal(true);
  });

  it('an endpoint origin the page lists in allowedEndpointOrigins is used', async () => {
    const { element } = await embed('form-id="f1" endpoint="https://api.example/mint"', {
      allowedEndpointOrigins: ['https://api.example'],
    });
    expect(fetched.urls).to.deep.equal(['https://api.example/mint/forms/f1/session']);
    expect(element.state).to.equal('framed');
  });

  it('an endpoint on an origin allowedEndpointOrigins does not list is refused, the list empty or naming others', async () => {
    for (const allowedEndpointOrigins of [[], ['https://api.example']]) {
      const { element, events } = await embed('form-id="f1" endpoint="https://evil.example/mint"', {
        allowedEndpointOrigins,
      });
      expect(element.state).to.equal('failed');
      expect(events[0]).to.include({ code: 'untrusted_origin', retryable: false });
    }
    expect(fetched.urls).to.deep.equal([]);
  });

  it('a same-origin endpoint, relative or absolute, needs no listing', async () => {
    await embed(`form-id="f1" endpoint="${location.origin}/portal"`);
    await embed('form-id="f2" endpoint="portal"');
    expect(fetched.urls).to.deep.equal([
      `${location.origin}/portal/forms/f1/session`,
      'portal/forms/f2/session',
    ]);
  });

  for (const [what, origin, trusted] of [
    ['plain http on another host', 'http://forms.example', false],
    ['https', 'https://forms.example', true],
    ['http on 127.0.0.1', 'http://127.0.0.1:4011', true],
    ['http on a *.localhost name', 'http://forms.localhost:4011', true],
    ['http on [::1]', 'http://[::1]:4011', true],
    ['http on a name that ends like a loopback one', 'http://127.0.0.1.evil.example', false],
    ['http on a name whose last label only ends in localhost', 'http://notlocalhost:4011', false],
  ] as const) {
    it(`an embedOrigin of ${what} is ${trusted ? 'framed' : 'refused as untrusted_origin'}`, async () => {
      const { element, events } = await embed('form-id="f1"', {
        fetchSession: async () => session({ embedOrigin: origin, embedUrl: `${origin}/embed/x` }),
      });
      if (trusted) {
        expect(element.state).to.equal('framed');
      } else {
        expect(element.state).to.equal('failed');
        expect(frameOf(element) === null, 'no frame').to.equal(true);
        expect(events[0]).to.include({ code: 'untrusted_origin', retryable: false });
      }
    });
  }

  it("an embedUrl on a host whose name only begins with the embed origin's is never framed", async () => {
    const { element, events } = await embed('form-id="f1"', {
      fetchSession: async () =>
        session({
          embedOrigin: 'https://forms.example',
          embedUrl: 'https://forms.example.evil.example/embed/x',
        }),
    });
    expect(element.state).to.equal('failed');
    expect(frameOf(element) === null, 'no frame').to.equal(true);
    expect(events[0]).to.include({ code: 'untrusted_origin', retryable: false });
  });

  for (const [what, attribute] of [
    ['"."', 'form-id="."'],
    ['".."', 'core-slug=".."'],
    ['empty', 'form-id=""'],
    ['201 characters', `form-id="${'a'.repeat(201)}"`],
  ]) {
    it(`a form ref that is ${what} fails with invalid_request before any request`, async () => {
      const { element, events } = await embed(attribute as string);
      expect(fetched.urls).to.deep.equal([]);
      expect(element.state).to.equal('failed');
      expect(events[0]).to.include({ code: 'invalid_request', status: 0 });
    });
  }

  it('a form ref of 200 characters is minted', async () => {
    await embed(`form-id="${'a'.repeat(200)}"`);
    expect(fetched.urls).to.have.length(1);
  });
});
