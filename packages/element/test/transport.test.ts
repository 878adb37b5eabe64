import { expect, fixture, html, oneEvent } from '@open-wc/testing';
import type { FormEmbedElement, FormEmbedErrorEvent } from '../src/index.js';
import { frameOf, installClock, session, settle } from './helpers.js';

interface Request {
  url: string;
  init: RequestInit;
}

/** Replaces window.fetch with a route that answers each mint with `answer()`. */
function stubFetch(answer: () => Response | Promise<Response>) {
  const requests: Request[] = [];
  const original = window.fetch;
  window.fetch = async (url, init = {}) => {
    requests.push({ url: String(url), init });
    return answer();
  };
  return {
    requests,
    restore: () => {
      window.fetch = original;
    },
  };
}

async function mountDefault(attributes = '') {
  installClock();
  const element = await fixture<FormEmbedElement>(
    html`<form-embed form-id="f 1" .requestInit=${{ headers: { 'X-CSRF-Token': 'csrf-1' } }}></form-embed>`,
  );
  if (attributes) element.setAttribute('endpoint', attributes);
  await settle(element);
  return element;
}

/** Mounts `<form-embed form-id="f1">` and resolves with its first form-embed-error. */
async function firstError() {
  installClock();
  const element = document.createElement('form-embed');
  element.setAttribute('form-id', 'f1');
  const event = oneEvent(element, 'form-embed-error') as unknown as Promise<FormEmbedErrorEvent>;
  (await fixture<HTMLDivElement>(html`<div></div>`)).append(element);
  return event;
}

describe('<form-embed> default transport', () => {
  let stub: ReturnType<typeof stubFetch> | undefined;
  afterEach(() => stub?.restore());

  it('POSTs {} as JSON to {endpoint}{mintPath}, same-origin, no-store, with requestInit headers, once per mint', async () => {
    stub = stubFetch(() => Response.json(session()));
    const element = await mountDefault();
    expect(stub.requests).to.have.length(1);
    const [request] = stub.requests as [Request];
    expect(request.url).to.equal('/form-sessions/forms/f%201/session');
    // Picked first: chai's include on the whole init (its Headers and AbortSignal) hung the run
    // when it failed, instead of naming the test (helpers.ts, DOM nodes).
    const { method, body, cache } = request.init;
    expect({ method, body, cache }).to.deep.equal({
      method: 'POST',
      body: '{}',
      cache: 'no-store',
    });
    // Left to fetch's default, same-origin, unless requestInit says otherwise.
    expect(request.init.credentials).to.equal(undefined);
    const headers = request.init.headers as Headers;
    expect(headers.get('Content-Type')).to.equal('application/json');
    expect(headers.get('X-CSRF-Token')).to.equal('csrf-1');
    expect(request.init.signal).to.be.instanceOf(AbortSignal);
    expect(element.state).to.equal('framed');
    expect(frameOf(element)).to.not.equal(null);
  });

  // A React prop left out sets the property to undefined (@lit/react) or null (React 19 on a
  // re-render); a morphing library removes the attribute.
  for (const [how, unset] of [
    ['undefined', (element: FormEmbedElement) => (element.endpoint = undefined)],
    ['null', (element: FormEmbedElement) => (element.endpoint = null)],
    ['the attribute removed', (element: FormEmbedElement) => element.removeAttribute('endpoint')],
    ['blank', (element: FormEmbedElement) => element.setAttribute('endpoint', '')],
  ] as const) {
    it(`mints at /form-sessions with endpoint unset (${how}): before the first mint, and after one elsewhere`, async () => {
      stub = stubFetch(() => Response.json(session()));
      installClock();
      const element = document.createElement('form-embed');
      element.setAttribute('form-id', 'f1');
      unset(element);
      (await fixture<HTMLDivElement>(html`<div></div>`)).append(element);
      await settle(element);
      element.setAttribute('endpoint', '/portal');
      await settle(element);
      unset(element);
      await settle(element);
      expect(stub.requests.map((request) => request.url)).to.deep.equal([
        '/form-sessions/forms/f1/session',
        '/portal/forms/f1/session',
        '/form-sessions/forms/f1/session',
      ]);
      expect(element.state).to.equal('framed');
    });
  }

  it('an endpoint going from unset to blank, or back, is the same endpoint: no second mint', async () => {
    stub = stubFetch(() => Response.json(session()));
    const element = await mountDefault();
    element.endpoint = '';
    await settle(element);
    element.endpoint = undefined;
    await settle(element);
    expect(stub.requests.map((request) => request.url)).to.deep.equal([
      '/form-sessions/forms/f%201/session',
    ]);
  });

  it("mints at the origin's root with endpoint /", async () => {
    stub = stubFetch(() => Response.json(session()));
    await mountDefault('/');
    expect(stub.requests.at(-1)?.url).to.equal('/forms/f%201/session');
  });

  it('follows no redirect, whatever requestInit says: a redirect would carry requestInit to another origin', async () => {
    stub = stubFetch(() => Response.json(session()));
    installClock();
    await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .requestInit=${{ redirect: 'follow' }}></form-embed>`,
    );
    expect(stub.requests[0]?.init.redirect).to.equal('error');
  });

  it("sends Content-Type application/json alone, whatever requestInit's headers say: the body is JSON", async () => {
    stub = stubFetch(() => Response.json(session()));
    installClock();
    await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .requestInit=${{ headers: { 'Content-Type': 'text/plain' } }}></form-embed>`,
    );
    const headers = stub.requests[0]?.init.headers as Headers;
    expect(headers.get('Content-Type')).to.equal('application/json');
  });

  it('properties set in the same task as the connection are in the first mint: one request, no error', async () => {
    stub = stubFetch(() => Response.json(session()));
    installClock();
    const errors: Event[] = [];
    const element = document.createElement('form-embed');
    element.addEventListener('form-embed-error', (event) => errors.push(event));
    (await fixture<HTMLDivElement>(html`<div></div>`)).append(element);
    // As a framework sets them once the element is in the page, or a page's script after `define`.
    element.formId = 'f1';
    element.endpoint = '/portal/sessions';
    element.requestInit = { headers: { 'X-CSRF-Token': 'csrf-2' } };
    await oneEvent(element, 'form-embed-session');
    expect(stub.requests.map((request) => request.url)).to.deep.equal([
      '/portal/sessions/forms/f1/session',
    ]);
    const headers = stub.requests[0]?.init.headers as Headers | undefined;
    expect(headers?.get('X-CSRF-Token')).to.equal('csrf-2');
    expect(errors).to.deep.equal([]);
    expect(element.state).to.equal('framed');
  });

  it('fetchSession, requestInit and allowedEndpointOrigins are properties of the element before they are set, so React sets them as properties', () => {
    const element = document.createElement('form-embed');
    for (const name of ['fetchSession', 'requestInit', 'allowedEndpointOrigins']) {
      expect(name in element, name).to.equal(true);
    }
  });

  it('uses the endpoint attribute as the mount path', async () => {
    stub = stubFetch(() => Response.json(session()));
    await mountDefault('/portal/api/sessions/');
    expect(stub.requests.at(-1)?.url).to.equal('/portal/api/sessions/forms/f%201/session');
  });

  it('a SessionError answer becomes form-embed-error with its code, status, retryable and Retry-After', async () => {
    stub = stubFetch(
      () =>
        new Response(
          JSON.stringify({ error: { code: 'rate_limited', message: 'op', retryable: true } }),
          { status: 429, headers: { 'Retry-After': '7', 'Content-Type': 'application/json' } },
        ),
    );
    const event = await firstError();
    expect(event).to.include({
      code: 'rate_limited',
      status: 429,
      retryable: true,
      retryAfter: 7,
      willRetry: true,
    });
  });

  it('a SessionError with a code this release does not know keeps it; a missing retryable is false', async () => {
    stub = stubFetch(() =>
      Response.json({ error: { code: 'seat_limit_reached' } }, { status: 403 }),
    );
    const event = await firstError();
    expect(event).to.include({
      code: 'seat_limit_reached',
      status: 403,
      retryable: false,
      retryAfter: undefined,
      willRetry: false,
    });
  });

  for (const [status, code, retryable] of [
    [502, 'unavailable', true],
    [500, 'unavailable', true],
    [499, 'unknown', false],
    [404, 'unknown', false],
  ] as const) {
    it(`a ${status} answer without a SessionError body (a proxy's page) is ${code}, retryable ${retryable}`, async () => {
      stub = stubFetch(() => new Response('<html>Bad gateway</html>', { status }));
      const event = await firstError();
      expect(event).to.include({ code, status, retryable });
    });
  }

  it("a 503 whose error field is not a SessionError (a proxy's JSON) is a retryable unavailable", async () => {
    stub = stubFetch(() => Response.json({ error: 'Service Unavailable' }, { status: 503 }));
    const event = await firstError();
    expect(event).to.include({
      code: 'unavailable',
      status: 503,
      retryable: true,
      willRetry: true,
    });
  });

  // As readSessionError reads it (the element reads the body itself, without the message): an
  // `error` without a non-empty string code is no SessionError, whatever its `retryable` says.
  for (const [status, error, code, retryable] of [
    [503, { code: 503, retryable: false }, 'unavailable', true],
    [503, { code: '', retryable: false }, 'unavailable', true],
    [503, null, 'unavailable', true],
    [404, { code: 404, retryable: true }, 'unknown', false],
  ] as const) {
    it(`a ${status} whose error is ${JSON.stringify(error)} is read by its status: ${code}`, async () => {
      stub = stubFetch(() => Response.json({ error }, { status }));
      const event = await firstError();
      expect(event).to.include({ code, status, retryable });
    });
  }

  // The middleware sends whole seconds; reading an HTTP-date (a proxy's) cost the bytes of the
  // attempt time limit: it counts as absent, and the element's own backoff applies.
  it("Retry-After is read in whole seconds, as the middleware sends it: 0 as 0, a proxy's HTTP-date as absent", async () => {
    installClock(); // firstError() installs another, which starts at the same time
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    stub = stubFetch(
      () => new Response('<html>', { status: 503, headers: { 'Retry-After': inAMinute } }),
    );
    const dated = await firstError();
    expect(dated).to.include({ code: 'unavailable', willRetry: true, retryAfter: undefined });
    stub.restore();
    stub = stubFetch(
      () => new Response('<html>', { status: 503, headers: { 'Retry-After': '90' } }),
    );
    expect((await firstError()).retryAfter).to.equal(90);
    stub.restore();
    stub = stubFetch(
      () => new Response('<html>', { status: 503, headers: { 'Retry-After': '0' } }),
    );
    expect((await firstError()).retryAfter).to.equal(0);
    // Not whole seconds: what the middleware never sends, each read as absent.
    for (const told of ['1.5', '1e2', '0x10']) {
      stub.restore();
      stub = stubFetch(
        () => new Response('<html>', { status: 503, headers: { 'Retry-After': told } }),
      );
      expect((await firstError()).retryAfter, told).to.equal(undefined);
    }
  });

  it('a network failure is unavailable, status 0, retryable', async () => {
    stub = stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const event = await firstError();
    expect(event).to.include({ code: 'unavailable', status: 0, retryable: true });
  });

  // Read as internal_error before, which blamed the middleware's answer for the network's cut.
  it('a 2xx whose body is cut off on the way is unavailable, status 0, as a network failure is', async () => {
    stub = stubFetch(() => {
      const cut = new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"embedUrl":"https://forms.exa'));
          controller.error(new TypeError('network error'));
        },
      });
      return new Response(cut, { status: 200, headers: { 'Content-Type': 'application/json' } });
    });
    const event = await firstError();
    expect(event).to.include({ code: 'unavailable', status: 0, retryable: true });
  });

  it('a 200 answer that is not a MintResponse is internal_error', async () => {
    stub = stubFetch(() => new Response('<html>', { status: 200 }));
    const event = await firstError();
    expect(event).to.include({ code: 'internal_error', retryable: true });
  });
});
