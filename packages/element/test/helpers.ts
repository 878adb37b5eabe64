import { FormSessionError, type MintResponse } from '@form-embed/protocol/browser';
import { fixture, html } from '@open-wc/testing';
import { type Clock, install } from '@sinonjs/fake-timers';
import type { FetchSession, FormEmbedElement } from '../src/index.js';
import '../src/define.js';

const realSetTimeout = window.setTimeout.bind(window);
const realRandom = Math.random;
let installed: Clock | undefined;

/**
 * Time the test moves: @sinonjs/fake-timers on setTimeout, Date and performance.now, and a fixed
 * Math.random.
 */
export interface TestClock {
  /** What Math.random answers, for the retry jitter. Defaults to 0.5. */
  randomValue: number;
  /** Timers still pending. */
  readonly pending: number;
  /** Moves time forward by `ms`, running each timer that falls due, then lets the page settle. */
  tick(ms: number): Promise<void>;
  /**
   * Sets performance.now `ms` back without moving the timers: they then fire early by it, as a
   * browser's timer may.
   */
  fireEarly(ms: number): void;
  /** Moves the wall clock (Date) by `ms`, back if negative, as a person or a time sync may; nothing else moves. */
  moveWallClock(ms: number): void;
}

/** Installs a fake clock in place of the window's time; it is taken out after each test. */
export function installClock(): TestClock {
  uninstallClock();
  const clock = install({
    now: 1_000_000,
    toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'],
  });
  installed = clock;
  const fakeNow = performance.now.bind(performance);
  let lag = 0;
  performance.now = () => fakeNow() - lag;
  const test: TestClock = {
    randomValue: 0.5,
    get pending() {
      return clock.countTimers();
    },
    async tick(ms) {
      await clock.tickAsync(ms);
      await settle();
    },
    fireEarly(ms) {
      lag += ms;
    },
    moveWallClock(ms) {
      clock.setSystemTime(clock.now + ms);
    },
  };
  Math.random = () => test.randomValue;
  return test;
}

/** Gives the window its own time back. */
export function uninstallClock() {
  installed?.uninstall();
  installed = undefined;
  Math.random = realRandom;
}

afterEach(uninstallClock);

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

// A run sends its mint a microtask or two after it starts (after an update then pending), never
// a task later: a test answers it once it is there, with no wait on any clock.
const MINT_MICROTASKS = 20;

/**
 * The element's mint number `n` (from 0), once the element has sent it: lets microtasks run,
 * at most MINT_MICROTASKS, until `calls[n]` is there, and fails the test when it never comes.
 */
export async function mintCall(calls: MintCall[], n: number): Promise<MintCall> {
  for (let i = 0; i < MINT_MICROTASKS && !calls[n]; i++) await 0;
  const call = calls[n];
  if (!call) throw new Error(`mint ${n} was never sent (${calls.length} sent, counted from 0)`);
  return call;
}

/** Lets the microtasks run in which the element sends a mint it is about to send, if any. */
export async function mintsSent() {
  for (let i = 0; i < MINT_MICROTASKS; i++) await 0;
}

/** A SessionError answer for `code`, with an operator message no person may be shown. */
export const failure = (code: string, retryable = false) =>
  new FormSessionError({ code, message: 'Operator detail: key abc', retryable, status: 400 });

export const embedOrigin = location.origin;
let pages = 0;
/** A fresh embedUrl on the test server's origin: the framed page posts `post` when given. */
export function embedUrl(post?: 'error' | 'expired') {
  return `${embedOrigin}/test/fixtures/embed-page.html?page=${++pages}${post ? `&post=${post}` : ''}`;
}

export function session(overrides: Partial<MintResponse> = {}): MintResponse {
  return { embedUrl: embedUrl(), embedOrigin, provider: 'microsoft', expiresIn: 120, ...overrides };
}

/**
 * Lets pending promises and one macrotask run, then waits for the element to render, and for two
 * frames: a status area speaks from the second frame after its element connected.
 */
export async function settle(element?: FormEmbedElement) {
  await new Promise((resolve) => realSetTimeout(resolve));
  await element?.updateComplete;
  await frames();
}

/** Waits for two frames to be rendered. */
export async function frames() {
  for (let i = 0; i < 2; i++) await new Promise(requestAnimationFrame);
}

// A DOM node in a failing chai assertion can hang the browser while chai prints it: tests compare
// nodes with `===` (or `!==`) and assert the boolean.
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
  const clock = installClock();
  const stub = sessionStub();
  const element = await fixture<FormEmbedElement>(
    html`<form-embed form-id="f1" .fetchSession=${options.fetchSession ?? stub.fetchSession}></form-embed>`,
  );
  await frames();
  return { element, clock, ...stub };
}

/** Mounts and frames a first session. */
export async function mountFramed() {
  const mounted = await mount();
  (await mintCall(mounted.calls, 0)).resolve(session());
  await settle(mounted.element);
  return mounted;
}

/** Resolves with the next event of `type` the element fires. */
export function when<K extends keyof HTMLElementEventMap>(element: HTMLElement, type: K) {
  return new Promise<HTMLElementEventMap[K]>((resolve) =>
    element.addEventListener(type, resolve, { once: true }),
  );
}

/** Makes `navigator.onLine` read `isOnline()`; the function returned puts the browser's back. */
export function stubOnLine(isOnline: () => boolean): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine');
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: isOnline });
  return () => {
    delete (navigator as { onLine?: boolean }).onLine;
    if (descriptor) Object.defineProperty(Navigator.prototype, 'onLine', descriptor);
  };
}

/** A `loading="lazy"` element below a tall spacer in a 300 px scroller: far from the viewport. */
export async function mountLazyFarAway() {
  const stub = sessionStub();
  const container = await fixture<HTMLDivElement>(
    html`<div style="height: 300px; overflow: auto">
      <div style="height: 3000px"></div>
      <form-embed form-id="f1" loading="lazy" .fetchSession=${stub.fetchSession}></form-embed>
    </div>`,
  );
  const element = container.querySelector('form-embed') as FormEmbedElement;
  return { ...stub, container, element };
}

/** Collects console.warn's first arguments while `run` runs. */
export async function warnings(run: () => Promise<unknown>) {
  const seen: string[] = [];
  const original = console.warn;
  console.warn = (message: string) => seen.push(message);
  try {
    await run();
  } finally {
    console.warn = original;
  }
  return seen;
}
