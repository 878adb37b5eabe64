/**
 * The bench portal's page. Plain script (no bundler step, nothing for tsx to rewrite) exposing
 * `window.bench`, which Playwright drives. The `message` listener is registered here, before
 * the element module loads, so it sees an `expired` message before any element does.
 */
import { FORM_ID, PORTAL_MINT_PATH } from './bench-setup.js';

const script = `
const nextSession = (element) =>
  new Promise((resolve, reject) => {
    const done = () => {
      element.removeEventListener('form-embed-session', onSession);
      element.removeEventListener('form-embed-error', onError);
    };
    const onSession = () => {
      done();
      const frame = element.shadowRoot.querySelector('iframe');
      if (!frame || !frame.src) reject(new Error('form-embed-session without a framed src'));
      else resolve(performance.now());
    };
    const onError = (event) => {
      done();
      reject(new Error('form-embed-error ' + event.code));
    };
    element.addEventListener('form-embed-session', onSession);
    element.addEventListener('form-embed-error', onError);
  });

/** A plain fetch of the bench's mint endpoint, as the element's default transport sends it. */
const mint = () =>
  fetch(${JSON.stringify(PORTAL_MINT_PATH)}, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    cache: 'no-store',
    credentials: 'same-origin',
  });

window.bench = {
  expiredAt: [],
  clear() {
    for (const element of document.querySelectorAll('form-embed, .floor')) element.remove();
  },
  /** Milliseconds from connecting a new <form-embed> to its iframe's src being set. */
  async connect() {
    this.clear();
    const element = document.createElement('form-embed');
    element.setAttribute('form-id', ${JSON.stringify(FORM_ID)});
    const framed = nextSession(element);
    const start = performance.now();
    document.body.append(element);
    return (await framed) - start;
  },
  /** Milliseconds for a plain fetch of the same mint endpoint, answer parsed. */
  async fetchMint() {
    const start = performance.now();
    const answer = await mint();
    const body = await answer.json();
    if (!answer.ok || typeof body.embedUrl !== 'string') throw new Error('mint failed: ' + answer.status);
    return performance.now() - start;
  },
  /**
   * Milliseconds for the least any element framing a form does, in plain script: put a box in
   * the page, fetch the same mint endpoint, parse the answer and insert an iframe with its
   * embedUrl. What a page pays for the iframe itself is in this figure, not in the element's.
   */
  async frameFloor() {
    this.clear();
    const start = performance.now();
    const box = Object.assign(document.createElement('div'), { className: 'floor' });
    box.style.height = '600px';
    document.body.append(box);
    const answer = await mint();
    const { embedUrl } = await answer.json();
    if (!answer.ok || typeof embedUrl !== 'string') throw new Error('mint failed: ' + answer.status);
    box.append(Object.assign(document.createElement('iframe'), { src: embedUrl, referrerPolicy: 'origin' }));
    return performance.now() - start;
  },
  /** Arms the wait for the remint after the next expired message. */
  armRemint() {
    this.expiredAt.length = 0;
    const element = document.querySelector('form-embed');
    this.remint = nextSession(element).then((framedAt) => {
      const expiredAt = this.expiredAt[0];
      if (expiredAt === undefined) throw new Error('reframed without an expired message');
      return framedAt - expiredAt;
    });
  },
  /** An element whose transport never settles (no mint). */
  idleElement() {
    const element = document.createElement('form-embed');
    element.setAttribute('form-id', ${JSON.stringify(FORM_ID)});
    // Never answers; tells the cycles below that the mint is in flight.
    element.fetchSession = () => {
      element.minting?.();
      return new Promise(() => {});
    };
    return element;
  },
  /** Connects one idle element and leaves it connected. */
  async connectIdle() {
    const element = this.idleElement();
    document.body.append(element);
    await element.updateComplete;
  },
  /** Connects one idle element n times, each time disconnecting it while its mint is in flight. */
  async cycles(n) {
    const element = this.idleElement();
    for (let i = 0; i < n; i++) {
      const minting = new Promise((resolve) => (element.minting = resolve));
      document.body.append(element);
      await minting;
      element.remove();
    }
  },
};

addEventListener('message', (event) => {
  if (event.data && event.data.state === 'expired') window.bench.expiredAt.push(performance.now());
});
`;

export const benchPageHtml = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>form-embed bench</title>
<script>${script}</script>
<script type="module" src="/element.js"></script>
</head>
<body>
<h1>form-embed bench</h1>
</body>
</html>`;
