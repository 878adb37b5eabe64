// Development warnings of a page's Content-Security-Policy that blocks what the element asks for:
// its frame (frame-src), or its mint (connect-src). The browser tells the document, not the
// element, so the element is found by the URL that was blocked.

import type { FormEmbedElement } from '../form-embed-element.js';
import { DEFAULT_ENDPOINT } from '../origins.js';
import { warn } from './warn.js';

/** The elements the page has, held weakly: a page may make and drop them for as long as it runs. */
const watched = new Set<WeakRef<FormEmbedElement>>();

export function watchForBlockedRequests(element: FormEmbedElement) {
  for (const ref of watched) {
    const known = ref.deref();
    if (known === element) return;
    if (known === undefined) watched.delete(ref);
  }
  watched.add(new WeakRef(element));
}

function* connected() {
  for (const ref of watched) {
    const element = ref.deref();
    if (element?.isConnected) yield element;
  }
}

// A frame on another origin, as every embed is in production, and a request to one, are reported
// by the origin alone (Chromium: http://127.0.0.1:4011, no path); on the page's own, whole.
// (URL.canParse is newer than some browsers the element runs in.)
function originOf(url: string) {
  try {
    return new URL(url).origin;
  } catch {
    return undefined; // 'inline', 'eval': not a request
  }
}

/** Frames already told of, so that each blocked frame gets one warning. */
const toldOfFrame = new WeakSet<HTMLIFrameElement>();

/**
 * Without the embed origin in frame-src, the element says `framed` over an empty frame, and only
 * the console's CSP error tells why.
 */
function adviseOnBlockedFrame({ effectiveDirective, blockedURI }: SecurityPolicyViolationEvent) {
  for (const element of connected()) {
    const frame = element.shadowRoot?.querySelector('iframe');
    if (!frame || toldOfFrame.has(frame)) continue;
    const origin = new URL(frame.src).origin;
    if (frame.src !== blockedURI && origin !== blockedURI) continue;
    toldOfFrame.add(frame);
    warn(
      element,
      `the page's Content-Security-Policy (${effectiveDirective}) blocks its frame on ${origin}, so the form does not show. Add ${origin} to the page's frame-src.`,
    );
    return;
  }
}

/**
 * Without the endpoint's origin in connect-src, each mint fails as the network would (retried,
 * then "The form is unavailable right now."). Only while the element mints or waits to: another
 * script's request to that origin is not its.
 */
function adviseOnBlockedEndpoint({ effectiveDirective, blockedURI }: SecurityPolicyViolationEvent) {
  const blocked = originOf(blockedURI);
  for (const element of connected()) {
    if (element.fetchSession || element.state === 'framed' || element.state === 'idle') continue;
    const origin = new URL(element.endpoint || DEFAULT_ENDPOINT, document.baseURI).origin;
    if (origin !== blocked) continue;
    const source = origin === location.origin ? `'self' (or ${origin})` : origin;
    warn(
      element,
      `the page's Content-Security-Policy (${effectiveDirective}) blocks its mint at ${origin}, so each attempt fails as if offline and the form shows as unavailable. Add ${source} to the page's connect-src.`,
    );
  }
}

if (typeof document !== 'undefined') {
  document.addEventListener('securitypolicyviolation', (event) => {
    const directive = event.effectiveDirective;
    if (/^(frame|child|default)-src$/.test(directive)) adviseOnBlockedFrame(event);
    if (/^(connect|default)-src$/.test(directive)) adviseOnBlockedEndpoint(event);
  });
}
