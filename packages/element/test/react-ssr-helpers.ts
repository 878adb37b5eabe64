import type { MintResponse } from '@form-embed/protocol/browser';
import type { FetchSession } from '../src/index.js';

// For the React test files that must run before anything registers the tag: never import
// helpers.ts (which registers it) from here. Each such file is a page of its own.

/** A transport that records the forms it is asked for and never answers. */
export function recordingTransport() {
  const requests: string[] = [];
  let asked = () => {};
  const fetchSession: FetchSession = (target) => {
    requests.push(target.kind === 'form' ? target.formId : target.slug);
    asked();
    return new Promise<MintResponse>(() => {});
  };
  return {
    requests,
    fetchSession,
    /** Resolves once `count` mints have been asked for. */
    until(count: number) {
      return new Promise<void>((resolve) => {
        asked = () => requests.length >= count && resolve();
        asked();
      });
    },
  };
}

/** A container in the page holding `html`, and the form-embed-error codes it hears. */
export function pageWith(html: string) {
  const container = document.createElement('div');
  const errors: string[] = [];
  container.addEventListener('form-embed-error', (event) => errors.push(event.code));
  container.innerHTML = html;
  document.body.append(container);
  return { container, errors };
}
