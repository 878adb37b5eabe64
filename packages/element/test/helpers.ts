import type { MintResponse } from '@form-embed/protocol/browser';
import { fixture, html } from '@open-wc/testing';
import type { FetchSession, FormEmbedElement } from '../src/index.js';
import '../src/define.js';

const real = { setTimeout: window.setTimeout, clearTimeout: window.clearTimeout };
const realNow = Date.now;
const realRandom = Math.random;

/**
 * Time the test moves by hand. While installed it replaces the window's setTimeout and
 * clearTimeout, Date.now and Math.random, as the element reads them; it is taken out after each
 * test. It counts the timers still pending.
 */
export class FakeClock {
  static #installed?: FakeClock | undefined;
  #now = 1_000_000;
  #id = 0;
  #timers = new Map<number, { at: number; callback: () => void }>();
  randomValue = 0.5;

  /** Installs a new clock in place of the window's time. */
  static install() {
    const clock = new FakeClock();
    FakeClock.uninstall();
    FakeClock.#installed = clock;
    window.setTimeout = ((callback: () => void, ms = 0) => {
      clock.#timers.set(++clock.#id, { at: clock.#now + ms, callback });
      return clock.#id;
    }) as typeof window.setTimeout;
    window.clearTimeout = ((id: number) => clock.#timers.delete(id)) as typeof window.clearTimeout;
    Date.now = () => clock.#now;
    Math.random = () => clock.randomValue;
    return clock;
  }

  /** Gives the window its own time back. */
  static uninstall() {
    if (!FakeClock.#installed) return;
    FakeClock.#installed = undefined;
    Object.assign(window, real);
    Date.now = realNow;
    Math.random = realRandom;
  }

  get pending() {
    return this.#timers.size;
  }
  /** Makes every pending timer fall due `ms` early, as real timers sometimes do. */
  fireEarly(ms: number) {
    for (const timer of this.#timers.values()) timer.at -= ms;
  }
  /** Moves time forward by `ms`, running each timer that falls due, in order. */
  async tick(ms: number) {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers]
        .filter(([, t]) => t.at <= end)
        .sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
      await settle();
    }
    this.#now = end;
    await settle();
  }
}

afterEach(() => FakeClock.uninstall());

export interface MintCall {
  target: Parameters<FetchSession>[0];
  signal: AbortSignal;
  resolve(session: unknown): void;
  reject(error: unknown): void;
}

/** A `fetchSession` whose answers the test gives one by one. */
export function sessionStub() {
  const calls: MintCall[] = [];
  const fetchSession: FetchSession = (target, { signal }) =>
    new Promise<MintResponse>((resolve, reject) => {
      calls.push({ target, signal, resolve, reject });
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
  return { calls, fetchSession };
}

export const embedOrigin = location.origin;
let pages = 0;
/** A fresh embedUrl on the test server's origin: the framed page posts `post` when given. */
export function embedUrl(post?: 'error' | 'expired') {
  return `${embedOrigin}/test/fixtures/embed-page.html?page=${++pages}${post ? `&post=${post}` : ''}`;
}

export function session(overrides: Partial<MintResponse> = {}): MintResponse {
  return { embedUrl: embedUrl(), embedOrigin, provider: 'microsoft', expiresIn: 120, ...overrides };
}

/** Lets pending promises and one macrotask run, then waits for the element to render. */
export async function settle(element?: FormEmbedElement) {
  await new Promise((resolve) => real.setTimeout.call(window, resolve));
  await element?.updateComplete;
}

export function frameOf(element: FormEmbedElement) {
  return element.shadowRoot?.querySelector('iframe') ?? null;
}

export function statusOf(element: FormEmbedElement) {
  return element.shadowRoot?.querySelector('[part=status]') as HTMLElement;
}

/** Collects the element's events of `types`, in order. */
export function record(element: HTMLElement, ...types: (keyof HTMLElementEventMap)[]) {
  const events: Event[] = [];
  for (const type of types) element.addEventListener(type, (event) => events.push(event));
  return events;
}

/** A framed message exactly as the window would deliver it. */
export function post(data: unknown, origin: string, source: MessageEventSource | null) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
}

export const errorMessage = (state: 'error' | 'expired' = 'error') => ({
  type: 'service:form-session',
  state,
});

/** Mounts `<form-embed form-id="f1">` with a stubbed transport, on a fake clock. */
export async function mount(options: { fetchSession?: FetchSession } = {}) {
  const clock = FakeClock.install();
  const stub = sessionStub();
  const element = await fixture<FormEmbedElement>(
    html`<form-embed form-id="f1" .fetchSession=${options.fetchSession ?? stub.fetchSession}></form-embed>`,
  );
  return { element, clock, ...stub };
}

/** Mounts and frames a first session. */
export async function mountFramed() {
  const mounted = await mount();
  mounted.calls[0]?.resolve(session());
  await settle(mounted.element);
  return mounted;
}

/** Resolves with the next event of `type` the element fires. */
export function when<K extends keyof HTMLElementEventMap>(element: HTMLElement, type: K) {
  return new Promise<HTMLElementEventMap[K]>((resolve) =>
    element.addEventListener(type, resolve, { once: true }),
  );
}
