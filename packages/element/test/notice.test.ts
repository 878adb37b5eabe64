import { FormSessionError } from '@form-embed/protocol/browser';
import { expect, fixture, html } from '@open-wc/testing';
import { emulateMedia } from '@web/test-runner-commands';
import type { FormEmbedElement } from '../src/index.js';
import ar from '../src/locales/ar.js';
import de from '../src/locales/de.js';
import {
  embedOrigin,
  errorMessage,
  frameOf,
  mintCall,
  mountFramed,
  post,
  record,
  session,
  sessionStub,
  settle,
  statusOf,
} from './helpers.js';

const lapsed =
  'Your session timed out and the form was reloaded. Entries not yet sent may need to be filled in again.';

/** Frames a first session, then has its page post `state` and frames the remint's answer. */
async function remintAfter(
  state: 'expired' | 'error',
  mounted?: Awaited<ReturnType<typeof mountFramed>>,
) {
  const framed = mounted ?? (await mountFramed());
  // The frame's message comes in a task of its own, after the update that messages set here ask
  // for: a mint asked for with an update pending waits for it.
  await framed.element.updateComplete;
  const remint = framed.calls.length;
  post(errorMessage(state), embedOrigin, frameOf(framed.element)?.contentWindow ?? null);
  (await mintCall(framed.calls, remint)).resolve(session());
  await settle(framed.element);
  return framed;
}

describe('<form-embed> lapse notice', () => {
  it('the first frame comes with no notice', async () => {
    const { element } = await mountFramed();
    expect(statusOf(element).textContent).to.equal('');
  });

  it('a remint after `expired` frames the new session with a polite notice and a Dismiss button', async () => {
    const { element } = await remintAfter('expired');
    expect(element.state).to.equal('framed');
    const status = statusOf(element);
    // role=status is polite by ARIA's own default; nothing overrides it (the e2e suite reads
    // the setting from Chromium's accessibility tree).
    expect(status.getAttribute('aria-live') ?? 'polite').to.equal('polite');
    expect(status.textContent).to.equal(`${lapsed}Dismiss`);
    expect(status.querySelector('button')?.getAttribute('part')).to.equal('dismiss');
  });

  it('a remint after `error` comes with no notice: nothing the user typed was lost to a lapse', async () => {
    const { element } = await remintAfter('error');
    expect(statusOf(element).textContent).to.equal('');
  });

  it('Dismiss removes the notice, keeps the frame and moves focus to it', async () => {
    const { element, calls } = await remintAfter('expired');
    statusOf(element).querySelector('button')?.click();
    await settle(element);
    expect(statusOf(element).textContent).to.equal('');
    expect(element.state).to.equal('framed');
    expect(calls).to.have.length(2);
    expect(element.shadowRoot?.activeElement === frameOf(element), 'focus in the frame').to.equal(
      true,
    );
  });

  it('a frame with the notice whose handle could not be redeemed (error: its form never showed) passes the notice on to the next frame', async () => {
    const mounted = await remintAfter('expired');
    const notices = record(mounted.element, 'form-embed-notice');
    await remintAfter('error', mounted);
    expect(statusOf(mounted.element).textContent).to.equal(`${lapsed}Dismiss`);
    expect(notices).to.have.length(1);
  });

  it("a notice the person dismissed is not told again when its frame's page then posts error (its used handle, reloaded)", async () => {
    const mounted = await remintAfter('expired');
    statusOf(mounted.element).querySelector('button')?.click();
    await settle(mounted.element);
    const notices = record(mounted.element, 'form-embed-notice');
    await remintAfter('error', mounted);
    expect(statusOf(mounted.element).textContent).to.equal('');
    expect(notices).to.have.length(0);
  });

  it("a remint after the notice's frame showed its form, the page's own or after error, takes the notice away", async () => {
    const mounted = await remintAfter('expired');
    await remintAfter('error', mounted); // the notice passed on to this frame, which shows its form
    mounted.element.remint();
    (await mintCall(mounted.calls, 3)).resolve(session());
    await settle(mounted.element);
    expect(statusOf(mounted.element).textContent).to.equal('');
    await remintAfter('error', mounted);
    expect(statusOf(mounted.element).textContent).to.equal('');
  });

  it('a lapse the page kept the frame through (remint cancelled) is not told on a new form, a fresh start', async () => {
    const { element, calls } = await mountFramed();
    element.addEventListener('form-embed-remint', (event) => event.preventDefault(), {
      once: true,
    });
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    await settle(element);
    expect(calls).to.have.length(1);
    element.formId = 'f2';
    await settle(element);
    calls[1]?.resolve(session());
    await settle(element);
    expect(element.state).to.equal('framed');
    expect(statusOf(element).textContent).to.equal('');
  });

  it('form-embed-notice is fired, cancelable, and preventDefault() shows no notice', async () => {
    const mounted = await mountFramed();
    const events = record(mounted.element, 'form-embed-notice');
    mounted.element.addEventListener('form-embed-notice', (event) => event.preventDefault());
    await remintAfter('expired', mounted);
    expect(events).to.have.length(1);
    expect(events[0]).to.include({ reason: 'expired', cancelable: true, bubbles: true });
    expect(statusOf(mounted.element).textContent).to.equal('');
  });

  it('a notice the page suppressed (preventDefault) is told once a lapse: its frame then posting error fires no second form-embed-notice', async () => {
    const mounted = await mountFramed();
    const events = record(mounted.element, 'form-embed-notice');
    mounted.element.addEventListener('form-embed-notice', (event) => event.preventDefault());
    await remintAfter('expired', mounted);
    await remintAfter('error', mounted);
    expect(events).to.have.length(1);
  });

  it('the messages key `lapsed` replaces its text, and an empty one suppresses it', async () => {
    const mounted = await mountFramed();
    mounted.element.messages = { lapsed: 'Session renewed.' };
    await remintAfter('expired', mounted);
    expect(statusOf(mounted.element).textContent).to.equal('Session renewed.Dismiss');
    mounted.element.messages = { lapsed: '' };
    await settle(mounted.element);
    expect(statusOf(mounted.element).textContent).to.equal('');
  });

  it('a lapse is told on the next frame even when the remint after it fails first (signed out, then signed in again)', async () => {
    const { element, calls } = await mountFramed();
    post(errorMessage('expired'), embedOrigin, frameOf(element)?.contentWindow ?? null);
    const signedOut = { code: 'sign_in_required', message: '', retryable: false, status: 401 };
    (await mintCall(calls, 1)).reject(new FormSessionError(signedOut));
    await settle(element);
    expect(element.state).to.equal('failed');
    element.remint();
    (await mintCall(calls, 2)).resolve(session());
    await settle(element);
    expect(statusOf(element).textContent).to.equal(`${lapsed}Dismiss`);
  });

  for (const cancels of [false, true]) {
    it(`a remint after \`expired\` that a form-embed-remint listener made itself (remint()${cancels ? ', the default prevented' : ''}) still frames with the notice`, async () => {
      const mounted = await mountFramed();
      mounted.element.addEventListener(
        'form-embed-remint',
        (event) => {
          if (cancels) event.preventDefault();
          mounted.element.remint();
        },
        { once: true },
      );
      await remintAfter('expired', mounted);
      expect(mounted.calls).to.have.length(2);
      expect(mounted.element.state).to.equal('framed');
      expect(statusOf(mounted.element).textContent).to.equal(`${lapsed}Dismiss`);
    });
  }

  it('a lapse that reached the remint bound is told on the frame Try again brings', async () => {
    const mounted = await mountFramed();
    for (let remint = 0; remint < 4; remint++) await remintAfter('expired', mounted);
    post(errorMessage('expired'), embedOrigin, frameOf(mounted.element)?.contentWindow ?? null);
    await settle(mounted.element);
    expect(mounted.element.state).to.equal('failed');
    expect(mounted.calls).to.have.length(5);
    statusOf(mounted.element).querySelector('button')?.click();
    (await mintCall(mounted.calls, 5)).resolve(session());
    await settle(mounted.element);
    expect(mounted.element.state).to.equal('framed');
    expect(statusOf(mounted.element).textContent).to.equal(`${lapsed}Dismiss`);
  });

  it('a notice listener that calls remint() leaves the element minting, not framed', async () => {
    const mounted = await mountFramed();
    mounted.element.addEventListener('form-embed-notice', () => mounted.element.remint(), {
      once: true,
    });
    const sessions = record(mounted.element, 'form-embed-session');
    await remintAfter('expired', mounted);
    expect(mounted.element.state).to.equal('minting');
    expect(mounted.calls).to.have.length(3);
    expect(sessions).to.have.length(0);
  });

  it('a notice listener that removes the element leaves it idle, with no form-embed-session', async () => {
    const mounted = await mountFramed();
    mounted.element.addEventListener('form-embed-notice', () => mounted.element.remove());
    const sessions = record(mounted.element, 'form-embed-session');
    await remintAfter('expired', mounted);
    expect(mounted.element.state).to.equal('idle');
    expect(sessions).to.have.length(0);
  });

  it("slot notice replaces the built-in notice with the page's own", async () => {
    const stub = sessionStub();
    const element = await fixture<FormEmbedElement>(
      html`<form-embed form-id="f1" .fetchSession=${stub.fetchSession}
        ><p slot="notice">Welcome back</p></form-embed
      >`,
    );
    stub.calls[0]?.resolve(session());
    await settle(element);
    const slot = () => statusOf(element).querySelector<HTMLSlotElement>('slot[name=notice]');
    expect(slot() === null, 'no slot').to.equal(true);
    await remintAfter('expired', { element, clock: undefined as never, ...stub });
    expect(slot()?.assignedElements()[0]?.textContent).to.equal('Welcome back');
    // The page words it; the element's Dismiss button still ends it.
    statusOf(element).querySelector<HTMLButtonElement>('[part=dismiss]')?.click();
    await settle(element);
    expect(slot() === null, 'no slot').to.equal(true);
    expect(statusOf(element).textContent).to.equal('');
  });

  // WCAG 1.4.10 and 1.4.12: at 320 CSS px (a phone, or 400% zoom of a 1280 px window), in German,
  // under a user's text spacing, the notice takes most of a 360 px element; the frame keeps its
  // 150 px minimum and was drawn past the element's box, over the page's next content.
  /**
   * Frames a German element styled `style` with a paragraph after it, and remints after `expired`:
   * the notice shows. `covered()` says whether the element is drawn over that paragraph.
   */
  async function germanNoticeAbovePage(style: string) {
    const mounted = await mountFramed();
    const { element } = mounted;
    element.messages = de;
    element.style.cssText = style;
    const below = element.insertAdjacentElement(
      'afterend',
      document.createElement('p'),
    ) as HTMLElement;
    below.style.cssText = 'height:600px;margin:0';
    await remintAfter('expired', mounted);
    const covered = () => {
      const { left, top } = below.getBoundingClientRect();
      return document.elementFromPoint(left + 20, top + 20) === element;
    };
    return { element, covered, done: () => below.remove() };
  }

  it('a notice taller than the element squeezes the frame: nothing is drawn over the page below', async () => {
    const { covered, done } = await germanNoticeAbovePage(
      'width:288px;--form-embed-height:360px;line-height:1.5;letter-spacing:.12em;word-spacing:.16em',
    );
    const drawnOver = covered();
    done();
    expect(drawnOver, 'the page below is covered by the element').to.equal(false);
  });

  // WCAG 1.4.4 with 1.4.10: text at 200% on a 320 px screen, in German, makes the notice taller
  // than the whole element. It ran out below it, Dismiss drawn over the page's next paragraph,
  // where a click went to the paragraph: the notice could not be dismissed with a mouse or a finger.
  it('a notice taller than the whole element scrolls inside it: the page below stays clear, and Dismiss, scrolled to, takes the click', async () => {
    const { element, covered, done } = await germanNoticeAbovePage(
      'width:288px;--form-embed-height:300px;font-size:32px',
    );
    const dismiss = statusOf(element).querySelector('[part=dismiss]') as HTMLButtonElement;
    dismiss.scrollIntoView({ block: 'nearest' });
    const box = dismiss.getBoundingClientRect();
    const hit = element.shadowRoot?.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const drawnOver = covered();
    done();
    expect(hit === dismiss, 'Dismiss takes the click').to.equal(true);
    expect(drawnOver, 'the page below is covered by the element').to.equal(false);
  });

  // WCAG 1.4.10: at 320 CSS px, the German notice stood in a column about 140 px wide beside its
  // Dismiss button, eleven lines high. Narrow, the button goes below the text; wide, it stays beside.
  it('a narrow notice takes the whole bar and Dismiss goes below it; a wide one keeps Dismiss beside it', async () => {
    const layout = async (width: string, lapsedMessages?: typeof de) => {
      const mounted = await mountFramed();
      if (lapsedMessages) mounted.element.messages = lapsedMessages;
      mounted.element.style.width = width;
      await remintAfter('expired', mounted);
      const status = statusOf(mounted.element);
      const text = document.createRange();
      text.selectNodeContents(status.querySelector('slot') as HTMLSlotElement);
      const button = status.querySelector('button') as HTMLButtonElement;
      return { text: text.getBoundingClientRect(), button: button.getBoundingClientRect() };
    };
    const narrow = await layout('288px', de);
    expect(narrow.text.width, 'text width at 288 px').to.be.above(200);
    expect(narrow.button.top, 'Dismiss below the text').to.be.at.least(narrow.text.bottom);
    const wide = await layout('600px');
    expect(wide.button.left, 'Dismiss beside the text').to.be.at.least(wide.text.right);
    expect(wide.button.top, 'on the same line').to.be.below(wide.text.bottom);
  });

  it('in a right-to-left page (Arabic) the bar is mirrored: Dismiss on the left of the notice, on its line', async () => {
    const mounted = await mountFramed();
    Object.assign(mounted.element, { lang: 'ar', dir: 'rtl', messages: ar });
    mounted.element.style.width = '600px';
    await remintAfter('expired', mounted);
    const status = statusOf(mounted.element);
    expect(status.textContent).to.equal(`${ar.lapsed}${ar.dismiss}`);
    const text = document.createRange();
    text.selectNodeContents(status.querySelector('slot') as HTMLSlotElement);
    const textBox = text.getBoundingClientRect();
    const button = (status.querySelector('button') as HTMLButtonElement).getBoundingClientRect();
    expect(button.right, 'Dismiss left of the text').to.be.at.most(textBox.left);
    expect(button.top, 'on the same line').to.be.below(textBox.bottom);
  });

  it("in Japanese, the README's word-break: auto-phrase reaches the notice's sentence from the page", async () => {
    const style = document.head.appendChild(document.createElement('style'));
    style.textContent = 'form-embed:lang(ja) { word-break: auto-phrase; }';
    try {
      const mounted = await mountFramed();
      mounted.element.lang = 'ja';
      await remintAfter('expired', mounted);
      const said = statusOf(mounted.element).querySelector('slot')?.firstElementChild as Element;
      expect(getComputedStyle(said).wordBreak).to.equal('auto-phrase');
    } finally {
      style.remove();
    }
  });

  it('left in English on a right-to-left page, it writes its sentence left to right, the full stop at its end; an Arabic one right to left', async () => {
    const english = await mountFramed();
    // One line of English (the notice in full wraps): where the full stop falls shows the direction.
    Object.assign(english.element, { dir: 'rtl', messages: { lapsed: 'Your session timed out.' } });
    english.element.style.width = '600px';
    await remintAfter('expired', english);
    const written = (element: FormEmbedElement) => {
      // The slot's fallback, the element's own sentence.
      const said = statusOf(element).querySelector('slot')?.firstElementChild as HTMLElement;
      const text = said.firstChild as Text;
      const at = (offset: number) => {
        const range = document.createRange();
        range.setStart(text, offset);
        range.setEnd(text, offset + 1);
        return range.getBoundingClientRect().left;
      };
      return {
        direction: getComputedStyle(said).direction,
        stop: at(text.length - 1),
        first: at(0),
      };
    };
    const inEnglish = written(english.element);
    expect(inEnglish.direction).to.equal('ltr');
    expect(inEnglish.stop, 'the full stop right of the first letter').to.be.above(inEnglish.first);
    const arabic = await mountFramed();
    Object.assign(arabic.element, { lang: 'ar', dir: 'rtl', messages: ar });
    await remintAfter('expired', arabic);
    expect(written(arabic.element).direction).to.equal('rtl');
  });

  // Forced colours (a Windows contrast theme) drop the bar's background, which was all that set the
  // notice apart from the form below it; they draw a transparent border in the text colour.
  it('in forced colours a border sets the notice apart from the form, and only the notice', async () => {
    const mounted = await mountFramed();
    const status = statusOf(mounted.element);
    await emulateMedia({ forcedColors: 'active' });
    try {
      expect(status.getBoundingClientRect().height, 'no notice, no room').to.equal(0);
      await remintAfter('expired', mounted);
      const border = getComputedStyle(status);
      expect(border.borderBottomStyle).to.not.equal('none');
      expect(Number.parseFloat(border.borderBottomWidth)).to.be.at.least(1);
      expect(border.borderBottomColor, 'drawn in a colour').to.match(/^rgb\(/);
      status.querySelector('button')?.click();
      await settle(mounted.element);
      expect(status.getBoundingClientRect().height, 'dismissed, no room').to.equal(0);
    } finally {
      await emulateMedia({ forcedColors: 'none' });
    }
    await remintAfter('expired', mounted);
    expect(getComputedStyle(status).borderBottomColor, 'unseen otherwise').to.equal(
      'rgba(0, 0, 0, 0)',
    );
  });
});
