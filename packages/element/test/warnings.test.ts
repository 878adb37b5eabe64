import { expect, fixture, html } from '@open-wc/testing';
import '../src/dev/warnings.js';
import { FormEmbedElement, type FormEmbedErrorEvent, messages } from '../src/index.js';
import { embedOrigin, session, sessionStub, settle, warnings } from './helpers.js';

/** Mounts each element in turn, each once it has failed its mint. */
async function failEach(markups: ReturnType<typeof html>[]) {
  for (const markup of markups) {
    // A refusal may come before fixture() resolves: listened for before.
    const failed = new Promise((resolve) =>
      document.addEventListener('form-embed-error', resolve, { once: true }),
    );
    await fixture<FormEmbedElement>(markup);
    await failed;
  }
}

/** The warnings of mounting each element in turn while the page's fetch gives `answer`. */
async function warningsOfFailures(answer: () => Response, markups: ReturnType<typeof html>[]) {
  const original = window.fetch;
  window.fetch = async () => answer();
  try {
    return await warnings(() => failEach(markups));
  } finally {
    window.fetch = original;
  }
}

/** A page's fetchSession refusing with `code`: a FormSessionError, known by its name. */
const refusing = (code: string, status: number) => () =>
  Promise.reject({ name: 'FormSessionError', code, status, retryable: false });

async function embed(markup: ReturnType<typeof html>) {
  const element = await fixture<FormEmbedElement>(markup);
  await settle(element);
  return element;
}

describe('<form-embed> development warnings', () => {
  const { fetchSession } = sessionStub();

  it('both form-id and core-slug: names the element and says to keep one', async () => {
    const seen = await warnings(() =>
      embed(
        html`<form-embed form-id="a" core-slug="b" .fetchSession=${fetchSession}></form-embed>`,
      ),
    );
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      /^<form-embed form-id="a" core-slug="b"[^>]*>: it has both form-id and core-slug\. Keep the one/,
    );
  });

  it('neither form-id nor core-slug: says which to add', async () => {
    const seen = await warnings(() =>
      embed(html`<form-embed .fetchSession=${fetchSession}></form-embed>`),
    );
    expect(seen.join()).to.contain(
      'neither form-id nor core-slug. Add form-id (a designer form) or core-slug (a Core form).',
    );
  });

  it('an unknown loading value: names it and the two it may be', async () => {
    const seen = await warnings(() =>
      embed(
        html`<form-embed form-id="a" loading="later" .fetchSession=${fetchSession}></form-embed>`,
      ),
    );
    expect(seen.join()).to.contain(
      'loading="later" is not a loading value. Use "eager" (the default) or "lazy".',
    );
  });

  it('loading removed, or set to undefined or null (a React prop left out): eager, and no warning', async () => {
    const seen = await warnings(async () => {
      const element = await embed(
        html`<form-embed form-id="a" loading="lazy" .fetchSession=${fetchSession}></form-embed>`,
      );
      element.removeAttribute('loading');
      await settle(element);
      for (const unset of [undefined, null]) {
        element.loading = unset as unknown as 'eager';
        await settle(element);
      }
    });
    expect(seen).to.deep.equal([]);
  });

  it('a cross-origin endpoint: says it is refused and how to allow it', async () => {
    const seen = await warnings(() =>
      embed(html`<form-embed form-id="a" endpoint="https://api.example/mint"></form-embed>`),
    );
    expect(seen.join()).to.contain(
      'its endpoint is on another origin (https://api.example), so it refuses to mint there.',
    );
    expect(seen.join()).to.contain('allowedEndpointOrigins');
    // Its mint's untrusted_origin is that refusal: no second line of a session not framed.
    expect(seen).to.have.length(1);
    const ownTransport = await warnings(() =>
      embed(
        html`<form-embed
          form-id="a"
          endpoint="https://api.example/mint"
          .fetchSession=${fetchSession}
        ></form-embed>`,
      ),
    );
    expect(ownTransport, 'a fetchSession of its own mints where it likes').to.deep.equal([]);
  });

  it('a message override with no text (a missing translation): names the keys and says to leave them out', async () => {
    const seen = await warnings(() =>
      embed(
        html`<form-embed
          form-id="a"
          .messages=${{ retry: undefined, dismiss: null, loading: 'Laden' }}
          .fetchSession=${fetchSession}
        ></form-embed>`,
      ),
    );
    expect(seen.join()).to.contain(
      'its messages property has no text for retry, dismiss, so those show empty. Leave a key out to keep its default.',
    );
  });

  it('a message key that is neither a message key nor a code this release knows (a misspelling): names it', async () => {
    const seen = await warnings(() =>
      embed(
        html`<form-embed
          form-id="a"
          .messages=${{ retyr: 'Nochmal', user_not_found: 'Bitte wenden Sie sich an die IT.' }}
          .fetchSession=${fetchSession}
        ></form-embed>`,
      ),
    );
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      /: its messages property has retyr, no message key nor a code this release knows, so nothing shows it\. Check the spelling \(a code newer than this release is fine\)\.$/,
    );
  });

  // A translation exported blank ('' for a missing string, as some i18n tools do) passes the
  // check above, and leaves Try again, Dismiss or the frame with no name for a screen reader.
  it('a button label or the frame name given as blank text: names the keys and says each names a control', async () => {
    const seen = await warnings(() =>
      embed(
        html`<form-embed
          form-id="a"
          .messages=${{ retry: '', dismiss: ' ', loading: '', lapsed: '' }}
          .fetchSession=${fetchSession}
        ></form-embed>`,
      ),
    );
    expect(seen.join()).to.contain(
      'its messages property has blank text for retry, dismiss, which name a button or the frame to a screen reader. Give them words, or leave them out to keep the defaults.',
    );
    // An empty message says nothing on purpose (the README's `lapsed`): not warned of.
    expect(seen.join()).to.not.contain('loading');
    expect(seen.join()).to.not.contain('lapsed');
    FormEmbedElement.messages = { frame: '' };
    try {
      const all = await warnings(() =>
        embed(html`<form-embed form-id="a" .fetchSession=${fetchSession}></form-embed>`),
      );
      expect(all.join()).to.contain('its FormEmbedElement.messages has blank text for frame,');
      const titled = await warnings(() =>
        embed(
          html`<form-embed form-id="a" frame-title="Order a laptop" .fetchSession=${fetchSession}></form-embed>`,
        ),
      );
      expect(titled, 'frame-title names the frame').to.deep.equal([]);
    } finally {
      FormEmbedElement.messages = messages;
    }
  });

  it('a well-formed element warns of nothing, however often it updates', async () => {
    const seen = await warnings(async () => {
      const element = await embed(
        html`<form-embed form-id="a" .fetchSession=${fetchSession}></form-embed>`,
      );
      element.setAttribute('frame-title', 'x');
      await settle(element);
    });
    expect(seen).to.deep.equal([]);
  });

  it('the same misuse is told once per element, not at every update', async () => {
    const seen = await warnings(async () => {
      const element = await embed(
        html`<form-embed loading="soon" form-id="a" .fetchSession=${fetchSession}></form-embed>`,
      );
      element.setAttribute('frame-title', 'x');
      await settle(element);
    });
    expect(seen).to.have.length(1);
  });

  // The middleware answers every refusal with a SessionError: a 404 or 405 without one is another
  // server's (a portal that did not mount it, or Next.js's `next start` in place of the custom
  // server), which the page otherwise shows only as "Something went wrong.".
  it('an endpoint where nothing mints (a 404 without a SessionError): says where to mount the middleware', async () => {
    const seen = await warnings(async () => {
      const failed = new Promise<FormEmbedErrorEvent>((resolve) =>
        document.addEventListener('form-embed-error', resolve, { once: true }),
      );
      await fixture<FormEmbedElement>(
        html`<form-embed form-id="a" endpoint="/nothing-mounted-here"></form-embed>`,
      );
      const { code, status } = await failed;
      expect([code, status]).to.deep.equal(['unknown', 404]);
    });
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      new RegExp(
        `^<form-embed form-id="a" endpoint="/nothing-mounted-here"[^>]*>: its endpoint answered 404 with no SessionError at ${location.origin}/nothing-mounted-here/forms/a/session, so nothing there mints\\. Mount @form-embed/express's Router at /nothing-mounted-here on this origin \\(on Next\\.js or React Router 7, run the custom server that mounts it, not next start, react-router dev or react-router-serve\\), or set endpoint to where it is mounted\\.$`,
      ),
    );
  });

  const mounts: [endpoint: string, mount: string][] = [
    ['/', '/'],
    ['nothing-relative/', new URL('nothing-relative', document.baseURI).pathname],
  ];
  for (const [endpoint, mount] of mounts) {
    it(`the 404 of endpoint ${JSON.stringify(endpoint)}: names the address the mint was sent to, and ${mount} to mount at`, async () => {
      const seen = await warnings(async () => {
        const failed = new Promise((resolve) =>
          document.addEventListener('form-embed-error', resolve, { once: true }),
        );
        await fixture(html`<form-embed form-id="a" endpoint=${endpoint}></form-embed>`);
        await failed;
      });
      const sent = performance
        .getEntriesByType('resource')
        .map((entry) => entry.name)
        .filter((name) => name.endsWith('/forms/a/session'))
        .at(-1);
      expect(sent).to.equal(
        new URL(`${mount.replace(/\/$/, '')}/forms/a/session`, location.origin).href,
      );
      expect(seen.join(' ')).to.contain(
        ` at ${sent}, so nothing there mints. Mount @form-embed/express's Router at ${mount} on this origin`,
      );
    });
  }

  it("the middleware's own refusals, and a transport of the page's, are not taken for a missing endpoint", async () => {
    const answers = [
      Response.json(
        { error: { code: 'form_not_found', message: 'x', retryable: false } },
        { status: 404 },
      ),
      new Response('<h1>Method Not Allowed</h1>', { status: 405 }),
    ];
    const seen = await warningsOfFailures(
      () => answers.shift() as Response,
      [
        html`<form-embed form-id="a"></form-embed>`,
        html`<form-embed
          form-id="a"
          .fetchSession=${refusing('unknown', 404)}
        ></form-embed>`,
        html`<form-embed form-id="b"></form-embed>`,
      ],
    );
    // The 405 (a static server's answer to a POST) is told; the other two are not.
    expect(seen).to.have.length(1);
    expect(seen[0]).to.contain('its endpoint answered 405 with no SessionError at');
  });

  // A page behind a proxy without trust proxy, or a development proxy that rewrites Host, has every
  // mint refused by the middleware as forbidden: the person reads that their account cannot open
  // the form, and only the portal's log names the origin refused.
  it("its own endpoint's forbidden (403): says the portal's log tells whether the middleware refused the page's origin; not for the page's own transport", async () => {
    const seen = await warningsOfFailures(
      () =>
        Response.json(
          { error: { code: 'forbidden', message: 'x', retryable: false } },
          { status: 403 },
        ),
      [
        html`<form-embed form-id="a"></form-embed>`,
        html`<form-embed
          form-id="b"
          .fetchSession=${refusing('forbidden', 403)}
        ></form-embed>`,
        // On another origin a refused page origin fails at the preflight: no proxy advice there.
        html`<form-embed
          form-id="c"
          endpoint="https://api.portal.example/form-sessions"
          .allowedEndpointOrigins=${['https://api.portal.example']}
        ></form-embed>`,
      ],
    );
    expect(seen).to.deep.equal([
      `<form-embed form-id="a" state="failed">: its endpoint answered forbidden (403) at ${location.origin}/form-sessions/forms/a/session, which the page shows as a refusal of the person's account. If they should open this form, read the portal's log: the middleware logs the page origin it refused as not its own (behind a proxy, set Express's trust proxy; a development proxy must pass the page's Host on). Otherwise the middleware's authorize option, or the service, refused them.`,
      `<form-embed form-id="c" endpoint="https://api.portal.example/form-sessions" state="failed">: its endpoint answered forbidden (403) at https://api.portal.example/form-sessions/forms/c/session, which the page shows as a refusal of the person's account. The middleware's authorize option, or the service, refused them.`,
    ]);
  });

  // Only a back end of the partner's own sends either (the middleware answers the service's
  // session as it is): the person reads "Something went wrong.", or after retries, each a mint at
  // the service, "The form is unavailable right now.".
  it("a session it will not frame: an embedOrigin not written as an origin, a 2xx that is no session; not a refusal's unknown", async () => {
    const seen = await warningsOfFailures(
      () => Response.json({ ok: true }),
      [
        html`<form-embed
          form-id="a"
          .fetchSession=${async () => ({ ...session(), embedOrigin: `${embedOrigin}/` })}
        ></form-embed>`,
        html`<form-embed form-id="b"></form-embed>`,
        html`<form-embed
          form-id="c"
          .fetchSession=${refusing('unknown', 400)}
        ></form-embed>`,
        html`<form-embed form-id="d" .fetchSession=${async () => ({ data: session() })}></form-embed>`,
        html`<form-embed
          form-id="e"
          .fetchSession=${async () => ({
            ...session(),
            embedOrigin: 'http://forms.example',
            embedUrl: 'http://forms.example/s/1',
          })}
        ></form-embed>`,
      ],
    );
    expect(seen).to.deep.equal([
      `<form-embed form-id="a" state="failed">: its session's embedUrl is not on its embedOrigin written as the browser writes an origin (scheme://host[:port], lower case, no trailing slash), or that origin is neither https nor loopback, so it refuses to frame it. Answer embedOrigin as @form-embed/protocol's canonicalOrigin() gives the service's formsOrigin or coreFormsOrigin.`,
      `<form-embed form-id="b" state="waiting">: its mint answered 2xx with a body that is no session ({embedUrl, embedOrigin, provider, expiresIn}, expiresIn a number), so it retries, and each retry mints again at the service. Answer the session the service minted.`,
      `<form-embed form-id="d" state="waiting">: its fetchSession resolved with something that is no session ({embedUrl, embedOrigin, provider, expiresIn}, expiresIn a number), so it retries, and each retry mints again at the service. Answer the session the service minted.`,
      `<form-embed form-id="e" state="failed">: its session's embedUrl is not on its embedOrigin written as the browser writes an origin (scheme://host[:port], lower case, no trailing slash), or that origin is neither https nor loopback, so it refuses to frame it. Answer embedOrigin as @form-embed/protocol's canonicalOrigin() gives the service's formsOrigin or coreFormsOrigin.`,
    ]);
  });

  it("a failure coded as one of its sentence keys: names it and what the person reads; not a SessionError's code", async () => {
    const seen = await warningsOfFailures(
      () => Response.json({}, { status: 500 }),
      (
        [
          ['a', 'loading', 400],
          ['b', 'user_not_found', 404],
        ] as const
      ).map(
        ([id, code, status]) =>
          html`<form-embed form-id=${id} .fetchSession=${refusing(code, status)}></form-embed>`,
      ),
    );
    expect(seen).to.deep.equal([
      '<form-embed form-id="a" state="failed">: its fetchSession rejected with code loading, one of its sentence keys, so the failure reads "Loading the form…". Fail with a SessionError code.',
    ]);
  });

  it("the middleware's own failures are not advised on: sign_in_required (a signed-out person), a 500 internal_error", async () => {
    const seen = await warningsOfFailures(
      () =>
        Response.json(
          { error: { code: 'internal_error', message: 'x', retryable: false } },
          { status: 500 },
        ),
      [
        html`<form-embed
          form-id="a"
          .fetchSession=${refusing('sign_in_required', 401)}
        ></form-embed>`,
        html`<form-embed form-id="b"></form-embed>`,
      ],
    );
    expect(seen).to.deep.equal([]);
  });

  it('define() on a tag another class holds says so and how to register under another name', async () => {
    const tag = `taken-${Math.random().toString(36).slice(2)}`;
    customElements.define(tag, class extends HTMLElement {});
    const seen = await warnings(async () => FormEmbedElement.define(tag));
    expect(seen[0]).to.equal(
      `<${tag}>: the tag is already defined by another class, so this FormEmbedElement is not registered. Load @form-embed/element once on the page, or register this one under another name with FormEmbedElement.define('my-form-embed').`,
    );
    expect(await warnings(async () => FormEmbedElement.define())).to.deep.equal([]);
  });
});
