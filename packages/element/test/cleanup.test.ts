import { FormSessionError } from '@form-embed/protocol/browser';
import { expect, fixture, html } from '@open-wc/testing';
import type { FetchSession } from '../src/index.js';
import '../src/define.js';
import { session } from './helpers.js';

/** Counts what the page holds alive: window listeners, window timers, intersection observers. */
function track() {
  const listeners = new Map<string, number>();
  const timers = new Set<unknown>();
  let observers = 0;
  const original = {
    add: window.addEventListener,
    remove: window.removeEventListener,
    setTimeout: window.setTimeout,
    clearTimeout: window.clearTimeout,
    IntersectionObserver: window.IntersectionObserver,
  };
  const count = (type: string, by: number) => listeners.set(type, (listeners.get(type) ?? 0) + by);
  window.addEventListener = function (
    this: Window,
    ...args: Parameters<Window['addEventListener']>
  ) {
    const signal = typeof args[2] === 'object' ? args[2].signal : undefined;
    if (signal?.aborted) return;
    count(args[0], 1);
    // A listener added with a signal is removed when the signal aborts.
    signal?.addEventListener('abort', () => count(args[0], -1), { once: true });
    return original.add.apply(this, args);
  };
  window.removeEventListener = function (
    this: Window,
    ...args: Parameters<Window['removeEventListener']>
  ) {
    count(args[0], -1);
    return original.remove.apply(this, args);
  };
  window.setTimeout = ((callback: () => void, ms?: number) => {
    const id = original.setTimeout.call(
      window,
      () => {
        timers.delete(id);
        callback();
      },
      ms,
    ) as unknown as number;
    timers.add(id);
    return id;
  }) as typeof window.setTimeout;
  window.clearTimeout = ((id?: number) => {
    timers.delete(id);
    original.clearTimeout.call(window, id);
  }) as typeof window.clearTimeout;
  window.IntersectionObserver = class extends original.IntersectionObserver {
    constructor(...args: ConstructorParameters<typeof IntersectionObserver>) {
      super(...args);
      observers++;
    }
    override disconnect() {
      observers--;
      super.disconnect();
    }
  };
  return {
    live: () => ({
      listeners: [...listeners.values()].filter((n) => n !== 0).length,
      timers: timers.size,
      observers,
    }),
    restore: () =>
      Object.assign(window, {
        addEventListener: original.add,
        removeEventListener: original.remove,
        setTimeout: original.setTimeout,
        clearTimeout: original.clearTimeout,
        IntersectionObserver: original.IntersectionObserver,
      }),
  };
}

describe('<form-embed> cleanup', () => {
  it('1,000 connect/disconnect cycles leave no timer, listener, observer or mint behind', async () => {
    const container = await fixture<HTMLDivElement>(html`<div></div>`);
    const signals: AbortSignal[] = [];
    let cycle = 0;
    // Every other mint fails retryably, so a retry timer is pending when the element leaves; one
    // in four is framed, so the frame's message listener is live when it leaves.
    const fetchSession: FetchSession = (_target, { signal }) => {
      signals.push(signal);
      if (cycle % 4 === 0) return Promise.resolve(session());
      return cycle % 2
        ? Promise.reject(
            new FormSessionError({
              code: 'unavailable',
              message: '',
              retryable: true,
              status: 503,
            }),
          )
        : new Promise(() => {});
    };
    let framed = 0;
    const tracker = track();
    try {
      for (cycle = 0; cycle < 1000; cycle++) {
        const element = document.createElement('form-embed');
        element.fetchSession = fetchSession;
        element.setAttribute('form-id', 'f1');
        if (cycle % 3 === 1) element.setAttribute('loading', 'lazy');
        element.addEventListener('form-embed-session', () => framed++);
        container.append(element);
        for (let i = 0; i < 5; i++) await Promise.resolve();
        element.remove();
      }
      expect(tracker.live()).to.deep.equal({ listeners: 0, timers: 0, observers: 0 });
      expect(signals.length).to.be.greaterThan(600);
      expect(framed).to.be.greaterThan(100);
      expect(signals.every((signal) => signal.aborted)).to.equal(true);
    } finally {
      tracker.restore();
    }
  });
});
