// Development-only warnings, loaded through the `development` export condition as Lit does: a
// misuse is explained while a page is built and costs nothing in production. They wrap the class
// from outside, so the production build holds none of this.

import { isKnownSessionErrorCode, isPortalErrorCode, mintPath } from '@form-embed/protocol/browser';
import type { FormEmbedErrorEvent } from '../events.js';
import { FormEmbedElement } from '../form-embed-element.js';
import { formTarget } from '../form-target.js';
import { messages as english, FAILURE_GROUPS } from '../messages.js';
import { DEFAULT_ENDPOINT, UNTRUSTED_ORIGIN } from '../origins.js';
import { watchForBlockedRequests } from './policy-warnings.js';
import { warn } from './warn.js';

/** The keys a messages object may have: the message keys, and each code this release knows. */
const KNOWN_KEYS = new Set([
  ...Object.keys(english),
  ...Object.values(FAILURE_GROUPS).flatMap((codes) => codes.split(' ')),
]);

/** The endpoint's origin when the default transport refuses it (origins.ts' mintUrl). */
function refusedEndpointOrigin({
  endpoint,
  fetchSession,
  allowedEndpointOrigins,
}: FormEmbedElement) {
  const { origin } = new URL(endpoint || DEFAULT_ENDPOINT, document.baseURI);
  const refused = !fetchSession && origin !== location.origin;
  return refused && !allowedEndpointOrigins?.includes(origin) ? origin : undefined;
}

/** What is wrong with `element`'s attributes and properties, as advice. */
function misuses(element: FormEmbedElement): string[] {
  const { formId, coreSlug, loading } = element;
  const found: string[] = [];
  if (formId != null && coreSlug != null) {
    found.push('it has both form-id and core-slug. Keep the one that names the form to frame.');
  } else if (formId == null && coreSlug == null) {
    found.push(
      'it has neither form-id nor core-slug. Add form-id (a designer form) or core-slug (a Core form).',
    );
  } else if (!formTarget(formId, coreSlug)) {
    found.push(
      'its form-id or core-slug is empty, "." or "..", over 200 characters, or cut inside a character (a lone surrogate). Use the form\'s id or slug.',
    );
  }
  if (loading != null && loading !== 'eager' && loading !== 'lazy') {
    found.push(`loading="${loading}" is not a loading value. Use "eager" (the default) or "lazy".`);
  }
  const origin = refusedEndpointOrigin(element);
  if (origin) {
    found.push(
      `its endpoint is on another origin (${origin}), so it refuses to mint there. Mount the middleware on this page's origin, or list ${origin} in the element's allowedEndpointOrigins property.`,
    );
  }
  // `{retry: t('retry')}` with the translation missing: the spread keeps the key, so the sentence
  // (a button's name, too) shows empty instead of falling back to the default.
  for (const [where, given] of [
    ['messages property', element.messages],
    ['FormEmbedElement.messages', FormEmbedElement.messages],
  ] as const) {
    const texts: Record<string, unknown> = given ?? {};
    // A misspelt key (`retyr`, `user_not_fuond`) types as a code newer than this release would.
    const unknown = Object.keys(texts).filter((key) => !KNOWN_KEYS.has(key));
    if (unknown.length > 0) {
      found.push(
        `its ${where} has ${unknown.join(', ')}, no message key nor a code this release knows, so nothing shows it. Check the spelling (a code newer than this release is fine).`,
      );
    }
    const blank = Object.keys(texts).filter((key) => typeof texts[key] !== 'string');
    if (blank.length > 0) {
      found.push(
        `its ${where} has no text for ${blank.join(', ')}, so those show empty. Leave a key out to keep its default.`,
      );
    }
    // '' (a translation exported blank) is text, but Try again, Dismiss or the frame named by it
    // has no name a screen reader can say. An empty message is allowed: it says nothing.
    // A frame-title names the frame instead of `frame`.
    const unnamed = ['retry', 'dismiss', ...(element.frameTitle ? [] : ['frame'])].filter(
      (key) => typeof texts[key] === 'string' && !(texts[key] as string).trim(),
    );
    if (unnamed.length > 0) {
      found.push(
        `its ${where} has blank text for ${unnamed.join(', ')}, which name a button or the frame to a screen reader. Give them words, or leave them out to keep the defaults.`,
      );
    }
  }
  return found;
}

/**
 * Two refusals of the element's own endpoint (not a page's `fetchSession`) that the page words for
 * the person, not for whoever set the portal up:
 * - 404 or 405 with no SessionError (the element's `unknown`) came from a server where nothing
 *   mints: the middleware answers every refusal with one (docs/contract.md#portal-codes). A portal
 *   that did not mount it, or Next.js's `next start` (React Router's `react-router-serve`) in place
 *   of the custom server that does, otherwise shows only "Something went wrong.".
 * - `forbidden` (403) is what the middleware answers a page origin it does not take for its own
 *   (a proxy without trust proxy, a development proxy rewriting Host): every mint refused, the
 *   person told their account cannot open the form, and only the portal's log names the origin.
 */
function adviseOnRefusedEndpoint(element: FormEmbedElement, { code, status }: FormEmbedErrorEvent) {
  const target = formTarget(element.formId, element.coreSlug);
  if (!target || element.fetchSession) return;
  // Where the default transport sent it (origins.ts' mintUrl): the path is put under the endpoint
  // before the page's base resolves it, so an endpoint of / mints at the origin's root.
  const path = mintPath(target);
  const endpoint = element.endpoint || DEFAULT_ENDPOINT;
  const url = new URL(endpoint.replace(/\/$/, '') + path, document.baseURI);
  const mount = url.pathname.slice(0, -path.length) || '/';
  if (code === 'unknown' && (status === 404 || status === 405)) {
    warn(
      element,
      `its endpoint answered ${status} with no SessionError at ${url.href}, so nothing there mints. Mount @form-embed/express's Router at ${mount} on this origin (on Next.js or React Router 7, run the custom server that mounts it, not next start, react-router dev or react-router-serve), or set endpoint to where it is mounted.`,
    );
  } else if (code === 'forbidden' && status === 403) {
    // On another origin the middleware refuses a page's origin at the preflight, which the page
    // sees as a network failure: its 403 there is authorize's, or the service's.
    const why =
      url.origin === location.origin
        ? "If they should open this form, read the portal's log: the middleware logs the page origin it refused as not its own (behind a proxy, set Express's trust proxy; a development proxy must pass the page's Host on). Otherwise the middleware's authorize option, or the service, refused them."
        : "The middleware's authorize option, or the service, refused them.";
    warn(
      element,
      `its endpoint answered forbidden (403) at ${url.href}, which the page shows as a refusal of the person's account. ${why}`,
    );
  }
}

/**
 * A session the element will not frame (origins.ts' trustedSession), which only a back end of the
 * partner's own sends, or a page's `fetchSession`: the person reads "This form is not set up
 * correctly.", or after retries that each mint again at the service, "The form is unavailable
 * right now.". Told by a failure with no status, which nothing else gives these two codes but a
 * refused endpoint, told of at connect (misuses).
 */
function adviseOnUnframedSession(element: FormEmbedElement, { code, status }: FormEmbedErrorEvent) {
  if (status !== 0) return;
  if (code === UNTRUSTED_ORIGIN && !refusedEndpointOrigin(element)) {
    warn(
      element,
      "its session's embedUrl is not on its embedOrigin written as the browser writes an origin (scheme://host[:port], lower case, no trailing slash), or that origin is neither https nor loopback, so it refuses to frame it. Answer embedOrigin as @form-embed/protocol's canonicalOrigin() gives the service's formsOrigin or coreFormsOrigin.",
    );
  } else if (code === 'internal_error') {
    const what = element.fetchSession
      ? 'its fetchSession resolved with something'
      : 'its mint answered 2xx with a body';
    warn(
      element,
      `${what} that is no session ({embedUrl, embedOrigin, provider, expiresIn}, expiresIn a number), so it retries, and each retry mints again at the service. Answer the session the service minted.`,
    );
  }
}

/**
 * A failure whose code is one of the element's sentence keys (`loading`, `retry`...), which the
 * middleware never passes on: the person reads that sentence ("Loading the form…") as the failure,
 * with no Try again. A page's `fetchSession`, or a back end of its own, can send one.
 */
function adviseOnSentenceCode(element: FormEmbedElement, { code }: FormEmbedErrorEvent) {
  if (!Object.hasOwn(english, code) || isKnownSessionErrorCode(code) || isPortalErrorCode(code)) {
    return;
  }
  const how = element.fetchSession ? 'its fetchSession rejected' : 'its mint failed';
  warn(
    element,
    `${how} with code ${code}, one of its sentence keys, so the failure reads "${english[code as keyof typeof english]}". Fail with a SessionError code.`,
  );
}

/** Each element's failures, read once by every piece of advice above. */
const listened = new WeakSet<FormEmbedElement>();
function watchForFailures(element: FormEmbedElement) {
  if (listened.has(element)) return;
  listened.add(element);
  element.addEventListener('form-embed-error', (event) => {
    for (const advise of [adviseOnRefusedEndpoint, adviseOnUnframedSession, adviseOnSentenceCode]) {
      advise(element, event);
    }
  });
}

const prototype = FormEmbedElement.prototype as unknown as { willUpdate(changed: unknown): void };
const { willUpdate } = prototype;
prototype.willUpdate = function warnThenUpdate(this: FormEmbedElement, changed) {
  for (const message of misuses(this)) warn(this, message);
  watchForBlockedRequests(this);
  watchForFailures(this);
  willUpdate.call(this, changed);
};

const { define } = FormEmbedElement;
FormEmbedElement.define = function warnThenDefine(
  this: typeof FormEmbedElement,
  tag = 'form-embed',
) {
  const taken = customElements.get(tag);
  if (taken && taken !== this) {
    console.warn(
      `<${tag}>: the tag is already defined by another class, so this FormEmbedElement is not registered. Load @form-embed/element once on the page, or register this one under another name with FormEmbedElement.define('my-form-embed').`,
    );
  }
  return define.call(this, tag);
} as typeof define;
