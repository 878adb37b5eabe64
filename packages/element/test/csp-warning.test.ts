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
});
