import { expect, fixture, html } from '@open-wc/testing';
import '../src/dev/warnings.js';
import type { FormEmbedElement } from '../src/index.js';
import { warnings } from './helpers.js';

// A file of its own: the policy it adds to the page cannot be taken back.
describe('<form-embed> development warnings: a Content-Security-Policy that blocks the mint', () => {
  // The endpoint on the test server's other loopback name: another origin, which the page's
  // own requests (the test runner's, on 'self') do not meet.
  const url = new URL(location.href);
  url.hostname = url.hostname === '127.0.0.1' ? 'localhost' : '127.0.0.1';
  const endpointOrigin = url.origin;

  it("names the directive and the endpoint's origin to add to the page's connect-src", async () => {
    document.head.append(
      Object.assign(document.createElement('meta'), {
        httpEquiv: 'Content-Security-Policy',
        content: "connect-src 'self'",
      }),
    );
    const seen = await warnings(async () => {
      const violation = new Promise<SecurityPolicyViolationEvent>((resolve) =>
        document.addEventListener('securitypolicyviolation', resolve, { once: true }),
      );
      const element = await fixture<FormEmbedElement>(
        html`<form-embed form-id="f1" endpoint=${`${endpointOrigin}/form-sessions`}
          .allowedEndpointOrigins=${[endpointOrigin]}></form-embed>`,
      );
      expect((await violation).effectiveDirective).to.equal('connect-src');
      // The page's listener, added after the warnings' own, has run theirs too.
      expect(element.state).to.not.equal('framed');
    });
    expect(seen).to.have.length(1);
    expect(seen[0]).to.match(
      new RegExp(
        `^<form-embed form-id="f1"[^>]*>: the page's Content-Security-Policy \\(connect-src\\) blocks its mint at ${endpointOrigin}, so each attempt fails as if offline and the form shows as unavailable\\. Add ${endpointOrigin} to the page's connect-src\\.$`,
      ),
    );
  });

  it("another script's request blocked on its endpoint's origin is not blamed on an element that is not minting (lazy, out of view)", async () => {
    const seen = await warnings(async () => {
      const container = await fixture<HTMLDivElement>(
        html`<div>
          <div style="height: 5000px"></div>
          <form-embed form-id="f2" loading="lazy" endpoint=${`${endpointOrigin}/form-sessions`}
            .allowedEndpointOrigins=${[endpointOrigin]}></form-embed>
        </div>`,
      );
      const element = container.querySelector('form-embed') as FormEmbedElement;
      await element.updateComplete;
      expect(element.state).to.equal('idle');
      const violation = new Promise<SecurityPolicyViolationEvent>((resolve) =>
        document.addEventListener('securitypolicyviolation', resolve, { once: true }),
      );
      await fetch(`${endpointOrigin}/other`).catch(() => {});
      expect((await violation).effectiveDirective).to.equal('connect-src');
    });
    expect(seen).to.deep.equal([]);
  });
});
