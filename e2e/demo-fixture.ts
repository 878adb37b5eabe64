import type { MintResponse } from '@form-embed/protocol';
import {
  test as base,
  expect,
  type Frame,
  type Locator,
  type Page,
  type Request,
} from '@playwright/test';
import { type PersonaId, personas } from '../demo/personas.js';
import { type Demo, type DemoOptions, startDemo } from '../demo/server.js';

/** A worker's demo, unless a spec's `test.use({demoOptions})` asks for another. */
export const workerDemoOptions: DemoOptions = {
  port: 0,
  // A worker's tests share one portal, and signed out one client address: its fifty-odd page
  // loads a minute outrun the middleware's defaults (30 catalogue requests a minute).
  limits: { mints: 1000, catalogue: 1000, signedOutMints: 1000 },
  pages: process.env.FORM_EMBED_DEMO_PAGES,
};

/**
 * Each worker gets its own demo portal (on `localhost`) and sandbox (on 127.0.0.1), so the
 * portal frames the embeds cross-site as in production; it serves the pages the global setup
 * built. Tests start from a reset sandbox.
 */
export const test = base.extend<{ demo: Demo }, { demoOptions: DemoOptions; workerDemo: Demo }>({
  demoOptions: [workerDemoOptions, { scope: 'worker', option: true }],
  workerDemo: [
    async ({ demoOptions }, use) => {
      const demo = await startDemo(demoOptions);
      await use(demo);
      await demo.close();
    },
    { scope: 'worker' },
  ],
  demo: async ({ workerDemo }, use) => {
    workerDemo.sandbox?.control.reset();
    await use(workerDemo);
  },
});

export { expect };

export interface RecordedEvent {
  type: string;
  /** The id of the element that fired it. */
  target: string;
  detail: Record<string, unknown>;
  /** `history.length` when the event fired. */
  history: number;
  /** `performance.now()` when the event fired. */
  at: number;
}

/** Every form-embed event the page sees, in order, recorded from the start of the page. */
export async function recordEvents(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: RecordedEvent[] = [];
    (window as unknown as { formEmbedEvents: typeof seen }).formEmbedEvents = seen;
    for (const type of [
      'form-embed-session',
      'form-embed-remint',
      'form-embed-error',
      'form-embed-notice',
    ]) {
      document.addEventListener(type, (event) => {
        seen.push({
          type,
          target: (event.target as Element).id,
          detail: { ...event },
          history: history.length,
          at: performance.now(),
        });
      });
    }
  });
}

export async function eventsOf(page: Page) {
  return page.evaluate(
    () =>
      (
        window as unknown as {
          formEmbedEvents: RecordedEvent[];
        }
      ).formEmbedEvents,
  );
}

/** Signs the portal user in as one of the demo's personas (a cookie the middleware reads). */
export async function signIn(page: Page, demo: Demo, persona: PersonaId): Promise<void> {
  const answer = await page.request.post(`${demo.url}/demo/sign-in`, { data: { persona } });
  if (!answer.ok()) throw new Error(`sign-in as ${persona} answered ${answer.status()}`);
}

/**
 * Clicks the console's Sign out and waits until it took effect: the cookie goes with the answer
 * to its request, and the console shows "Sign in again" only then. A mint or a reload sooner
 * would still be signed in (a reload cancels the request).
 */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in again' })).toBeVisible();
}

/**
 * Picks `persona` in the console's Portal user and waits until the portal signed them in: the
 * line under the picker says what the sandbox answers them only once the sign-in was answered.
 */
export async function pickPortalUser(page: Page, persona: PersonaId): Promise<void> {
  await page.getByLabel('Portal user').selectOption(persona);
  await expect(page.locator('#persona-expect')).toHaveText(personas[persona].expect);
}

/** Counts the browser's mint requests (`POST …/session`) from now on. */
export function countMints(page: Page): { readonly count: number } {
  const counter = { count: 0 };
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/form-sessions\/.+\/session$/.test(request.url())) {
      counter.count += 1;
    }
  });
  return counter;
}

/**
 * Holds the browser's next mint request (`POST …/session`) until `release()` is called, then lets
 * it through to the portal: the element stays `minting` for as long as the test needs, instead of
 * the sandbox delaying its answers by a wall-clock guess.
 */
export async function holdNextMint(page: Page): Promise<{ release(): void }> {
  const { release, released } = gate();
  await page.route(
    /\/form-sessions\/.+\/session$/,
    async (route) => {
      await released;
      await route.continue();
    },
    { times: 1 },
  );
  return { release };
}

/**
 * Holds the portal's answer to the browser's next catalogue request (the portal has read who is
 * signed in and answered) until `release()`, as a slow service would. `requested` resolves once
 * the request is held; `answered` once the page has had that answer (not another listing's) and
 * then a round trip to the portal, by which time the page has read the answer's body.
 */
export async function holdNextListing(page: Page) {
  const { release, released } = gate();
  let held: (request: Request) => void = () => {};
  const requested = new Promise<Request>((resolve) => {
    held = resolve;
  });
  await page.route(
    /\/form-sessions\/forms$/,
    async (route) => {
      held(route.request());
      const response = await route.fetch();
      await released;
      await route.fulfill({ response });
    },
    { times: 1 },
  );
  const answered = requested
    .then((request) =>
      page.waitForEvent('requestfinished', { predicate: (finished) => finished === request }),
    )
    .then(() => page.evaluate(() => fetch('/demo/config').then((answer) => answer.text())));
  // A test that never awaits it must not fail on its rejection when the page closes.
  answered.catch(() => {});
  return { release, requested, answered };
}

/** `released`, settled by `release()`. */
function gate() {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { release, released };
}

/**
 * The Submit button of the form framed by the `<form-embed>` at `selector`. Visible once the
 * framed page has loaded: `framed` comes earlier, when the iframe's src is set, and sessions
 * expired while the page still loads make the page post `expired` by itself.
 */
export function submitOf(page: Page, selector = '#embed-slot form-embed'): Locator {
  return page.frameLocator(`${selector} iframe`).getByRole('button', { name: 'Submit' });
}

/** The frame document currently inside `element` (a `<form-embed>` locator). */
export async function frameOf(element: Locator): Promise<Frame> {
  const handle = await element.locator('iframe').elementHandle();
  const frame = await handle?.contentFrame();
  if (!frame) throw new Error('the element has no frame');
  return frame;
}

/**
 * Runs `reload`, which reloads `element`'s frame, and waits until that same frame holds the new
 * document. The frame's window is marked first, so the document before the reload never passes
 * for the new one; a frame replaced meanwhile (a remint's) never passes either, as reading the
 * detached frame fails.
 */
export async function reloadFrame(
  element: Locator,
  reload: (frame: Frame) => Promise<unknown>,
): Promise<void> {
  const frame = await frameOf(element);
  await frame.evaluate(() => {
    (window as { beforeReload?: true }).beforeReload = true;
  });
  await reload(frame);
  await expect
    .poll(() => frame.evaluate(() => 'beforeReload' in window).catch(() => true))
    .toBe(false);
}

/**
 * Replaces the console's element with one whose transport first answers `held` (a mint it kept,
 * as a careless integrator's cache would), then mints properly. The element cannot know how old
 * or spent `held` is; only the framed page can.
 */
export async function embedWithHeldSession(page: Page, held: MintResponse): Promise<void> {
  await page.evaluate((session) => {
    const element = document.createElement('form-embed') as HTMLElement & {
      fetchSession?: unknown;
    };
    element.setAttribute('form-id', 'form_microsoft');
    let calls = 0;
    element.fetchSession = async () =>
      calls++ === 0
        ? session
        : (
            await fetch('/form-sessions/forms/form_microsoft/session', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: '{}',
            })
          ).json();
    document.querySelector('#embed-slot form-embed')?.replaceWith(element);
  }, held);
}

/**
 * Resolves once every message the frame inside `element` has posted so far has reached the
 * page, instead of waiting to see that nothing happens: messages from one window arrive in the
 * order posted, so a marker posted now arrives after them; and the element handles a message
 * (firing any remint) while it is dispatched, before the marker's turn.
 */
export async function messagesDelivered(page: Page, element: Locator): Promise<void> {
  const marker = `delivered-${Math.random()}`;
  await page.evaluate((m) => {
    (window as unknown as { delivered: Promise<void> }).delivered = new Promise((resolve) =>
      addEventListener('message', (event) => event.data === m && resolve()),
    );
  }, marker);
  await (await frameOf(element)).evaluate((m) => window.parent.postMessage(m, '*'), marker);
  await page.evaluate(() => (window as unknown as { delivered: Promise<void> }).delivered);
}

/**
 * Opens the QA console and waits for its `<form-embed>` to frame the first form, and the form to
 * show; returns it. The state is framed once the iframe is made, and the frame's handle is spent
 * only when its page loads: a fault armed, or the sandbox's clock moved, before that would meet
 * this first frame instead of the test's.
 */
export async function openFramedConsole(page: Page, demo: Demo): Promise<Locator> {
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  return element;
}

/**
 * The element framed its form again (its Submit shows) after exactly one remint, which its
 * framed page asked for with `reason` (the page recorded its events: `recordEvents`). The remint
 * is waited for first: until it comes, the frame that is to lapse is framed and shows its form.
 */
export async function expectReframedAfterOneRemint(
  page: Page,
  element: Locator,
  reason: 'error' | 'expired',
): Promise<void> {
  const remintReasons = async () =>
    (await eventsOf(page))
      .filter((e) => e.type === 'form-embed-remint')
      .map((e) => e.detail.reason);
  await expect.poll(remintReasons).toEqual([reason]);
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  expect(await remintReasons()).toEqual([reason]);
}
