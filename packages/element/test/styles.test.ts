import { expect } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import {
  embedOrigin,
  errorMessage,
  failure,
  frameOf,
  mintCall,
  mount,
  mountFramed,
  post,
  session,
  settle,
  statusOf,
} from './helpers.js';

// The stylesheet's rules (src/styles.ts) that no behaviour test measures, each pinned here by the
// geometry or computed style it gives in Chromium.

/** The boxes of the status area's text, one a line, and of its button. */
function boxes(element: HTMLElement) {
  const status = statusOf(element as never);
  const text = document.createRange();
  text.selectNodeContents(status.querySelector('slot') as HTMLSlotElement);
  return {
    area: status.getBoundingClientRect(),
    lines: [...text.getClientRects()],
    text: text.getBoundingClientRect(),
    button: (status.querySelector('button') as HTMLButtonElement).getBoundingClientRect(),
  };
}

/** Frames a session, then has its page post `expired` and frames the remint's: the notice shows. */
async function withNotice(style: string, lapsed?: string) {
  const mounted = await mountFramed();
  const { element, calls } = mounted;
  element.style.cssText = style;
  if (lapsed) element.messages = { lapsed };
  // The frame's message comes in a task of its own, after the update messages ask for.
  await element.updateComplete;
  const remint = calls.length;
  post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
  (await mintCall(calls, remint)).resolve(session());
  await settle(element);
  return mounted;
}

describe('<form-embed> styles', () => {
  it('is 600px high when the page sets no --form-embed-height', async () => {
    const { element } = await mount();
    expect(element.getBoundingClientRect().height).to.equal(600);
  });

  it('the frame draws no border of its own', async () => {
    const { element } = await mountFramed();
    expect(getComputedStyle(frameOf(element) as HTMLIFrameElement).borderTopWidth).to.equal('0px');
  });

  it("on a page that makes the element a block (form-embed { display: block }, or inline-block), the frame still takes the element's height, not a frame's default 150 px", async () => {
    const { element } = await mountFramed();
    for (const display of ['block', 'inline-block']) {
      element.style.display = display;
      expect(getComputedStyle(element).display).to.equal(display);
      expect((frameOf(element) as HTMLIFrameElement).getBoundingClientRect().height).to.equal(600);
      // An inline frame sat on a text line, 4 px below the element's end: a scroll box (with a
      // scrollbar where scrollbars take room) that a modal dialog focused instead of the form.
      expect(element.scrollHeight, display).to.equal(element.clientHeight);
    }
  });

  it("framed in a grid cell narrower than a frame's default 300 px (a 320 px screen), the element and its frame are as wide as the cell, not 300 px", async () => {
    const { element } = await mountFramed();
    // A grid item's automatic minimum is its content's: a frame of the browser's default width
    // made the element, and the page around it, at least 300 px wide.
    (element.parentElement as HTMLElement).style.cssText = 'display:grid;width:200px';
    expect(element.getBoundingClientRect().width).to.equal(200);
    expect((frameOf(element) as HTMLIFrameElement).getBoundingClientRect().width).to.equal(200);
  });

  it('without a frame the status area fills the element, its lines centred, 1em inside its edges, Try again 1em below the text, the two centred top to bottom', async () => {
    const { element, calls } = await mount();
    element.style.cssText = 'width:240px;--form-embed-height:300px;font-size:16px';
    element.messages = {
      unknown: 'A message long enough to wrap onto a few lines, and a short end',
    };
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    const { area, lines, text, button } = boxes(element);
    const host = element.getBoundingClientRect();
    expect([area.top, area.height, area.width]).to.deep.equal([host.top, host.height, host.width]);
    expect(lines.length, 'the text wraps').to.be.at.least(3);
    const middle = area.left + area.width / 2;
    for (const line of lines) {
      expect(Math.abs(line.left + line.width / 2 - middle), 'a line centred').to.be.below(1);
    }
    expect(getComputedStyle(statusOf(element)).padding).to.equal('16px');
    expect(button.top - text.bottom, '1em between the text and Try again').to.be.closeTo(16, 1);
    const above = text.top - area.top;
    const below = area.bottom - button.bottom;
    expect(Math.abs(above - below), 'centred top to bottom').to.be.below(1);
  });

  it('a short notice on a wide bar keeps its Dismiss 1em beside it, the two centred in the bar', async () => {
    const { element } = await withNotice('width:900px;font-size:16px', 'Reloaded.');
    const { area, text, button } = boxes(element);
    expect(button.left - text.right, '1em between the text and Dismiss').to.be.closeTo(16, 1);
    const left = text.left - area.left;
    const right = area.right - button.right;
    expect(Math.abs(left - right), 'the pair centred').to.be.below(1);
    const middle = (box: DOMRect) => box.top + box.height / 2;
    expect(Math.abs(middle(text) - middle(button)), 'on one centre line').to.be.below(1);
    const frame = (frameOf(element) as HTMLIFrameElement).getBoundingClientRect();
    expect(area.bottom, 'the bar above the frame').to.be.at.most(frame.top);
  });

  it("the notice's bar has the README's border below it, 3 px of the bar's own background", async () => {
    const { element } = await withNotice('');
    const style = getComputedStyle(statusOf(element));
    expect([style.borderBottomWidth, style.borderBottomColor]).to.deep.equal([
      '3px',
      'rgba(0, 0, 0, 0)',
    ]);
  });

  it('a Dismiss worded by one narrow letter in a small font is still a 24 by 24 CSS px target', async () => {
    const { element } = await withNotice('font-size:10px');
    element.messages = { dismiss: 'i' };
    await settle(element);
    const { button } = boxes(element);
    expect(button.width).to.be.at.least(24);
    expect(button.height).to.be.at.least(24);
  });

  // WCAG 1.4.10 at 320 CSS px: a page's own German with a compound longer than the element is wide
  // ran 66 px out of each side of it, centred, the left part off the page where no scroll reaches.
  // The element breaks no word (overflow-wrap costs 17 B, more than the bundle has left under its
  // budget): the README's one line of the page's CSS, inherited into the shadow tree, does.
  it("with the README's overflow-wrap on the element, a word wider than it breaks inside it, in the message and on Try again", async () => {
    const { element, calls } = await mount();
    element.style.cssText = 'width:320px;overflow-wrap:anywhere';
    element.messages = {
      unknown: 'Die Authentifizierungsinformationsübermittlungsschnittstelle ist ausgefallen.',
      retry: 'Verbindungswiederherstellungsversuch',
    };
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    const host = element.getBoundingClientRect();
    const { text, button } = boxes(element);
    for (const [name, box] of [
      ['text', text],
      ['Try again', button],
    ] as const) {
      expect(box.left, `${name} left`).to.be.at.least(host.left);
      expect(box.right, `${name} right`).to.be.at.most(host.right);
    }
  });

  // Apart from the border, which forced colours draw in the ring's colour too.
  it("the buttons' focus ring stands 2px off them", async () => {
    const { element, calls } = await mount();
    calls[0]?.reject(failure('unknown'));
    await settle(element);
    const retry = statusOf(element).querySelector('[part=retry]') as HTMLButtonElement;
    expect(getComputedStyle(retry).outlineOffset).to.equal('2px');
  });

  it('in forced colours the status area has no border while it loads or reports a failure, only while it holds a notice', async () => {
    await emulateMedia({ forcedColors: 'active' });
    try {
      const { element, calls } = await mount();
      const status = statusOf(element);
      expect(getComputedStyle(status).borderBottomStyle, 'loading').to.equal('none');
      calls[0]?.reject(failure('unknown'));
      await settle(element);
      expect(getComputedStyle(status).borderBottomStyle, 'failed').to.equal('none');
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
  });
});
