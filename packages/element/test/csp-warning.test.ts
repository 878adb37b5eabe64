import { expect, fixture, html } from '@open-wc/testing';
import '../src/dev/warnings.js';
import type { FormEmbedElement } from '../src/index.js';
import { embedOrigin, session, sessionStub, settle, warnings } from './helpers.js';

// A file of its own: the policy it adds to the page cannot be taken back.
describe('<form-embed> development warnings: a Content-Security-Policy that blocks the frame', () => {
  it("names the directive and the embed origin to add to the page's frame-src", async () => {
    const policy = Object.assign(document.createElement('meta'), {
      httpEquiv: 'Content-Security-Policy',
      content: "frame-src 'none'",
    });
    document.head.append(policy);
    const seen = await warnings(async () => {
      const stub = sessionStub();
      const element = await fixture<FormEmbedElement>(
        html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}></form-embed>`,
      );
      const violation = new Promise((resolve) =>
        document.addEventListener('securitypolicyviolation', resolve, { once: true }),
      );
      stub.calls[0]?.resolve(session());
      await settle(element);
      await violation;
    });
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      new RegExp(
        `^<form-embed form-id="f1"[^>]*>: the page's Content-Security-Policy \\(frame-src\\) blocks its frame on ${embedOrigin}, so the form does not show\\. Add ${embedOrigin} to the page's frame-src\\.$`,
      ),
    );
  });

  it('names it for a frame on another origin, whose blocked URL the browser cuts to its origin', async () => {
    // In production the frame is always on another origin, and Chromium then reports only the
    // origin as blockedURI (http://127.0.0.1:4011, no path), never the frame's whole src.
    const url = new URL(location.href);
    url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
    const otherOrigin = url.origin;
    const seen = await warnings(async () => {
      const stub = sessionStub();
      const element = await fixture<FormEmbedElement>(
        html`<form-embed form-id="f2" .fetchSession=${stub.fetchSession}></form-embed>`,
      );
      const violation = new Promise<SecurityPolicyViolationEvent>((resolve) =>
        document.addEventListener('securitypolicyviolation', resolve, { once: true }),
      );
      stub.calls[0]?.resolve(
        session({ embedUrl: `${otherOrigin}/f/f2?handle=h`, embedOrigin: otherOrigin }),
      );
      await settle(element);
      expect((await violation).blockedURI).to.equal(otherOrigin);
    });
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      new RegExp(
        `^<form-embed form-id="f2"[^>]*>: the page's Content-Security-Policy \\(frame-src\\) blocks its frame on ${otherOrigin}, so the form does not show\\. Add ${otherOrigin} to the page's frame-src\\.$`,
      ),
    );
  });
});
