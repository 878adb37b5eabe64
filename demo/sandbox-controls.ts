// The console's sandbox controls: Expire, Burn, Remint, the two Arms (a mint, a framed page; with
// how many failures are armed), the upstream latency box, the sandbox clock, using up the mints
// and Reset, each telling its result on the line below them.
import type { FormEmbedElement } from '@form-embed/element';
import {
  isKnownSessionErrorCode,
  knownSessionErrorCodes,
  SessionErrorCodes,
  UNKNOWN_CODE_STATUS,
} from '@form-embed/protocol/browser';
import { type Burnt, burnHandle } from './burn-handle.js';
import { resultSayer } from './control-result.js';
import { byId } from './dom.js';
import { wholeNumberBox } from './whole-number-box.js';

/** The longest latency the box takes: a minute, well past the middleware's 10 s timeoutMs. */
const MAX_LATENCY_MS = 60_000;
/** The most the clock box moves the sandbox clock at once: a day. */
const MAX_CLOCK_SECONDS = 86_400;

/**
 * Wires the controls to the element `current()` returns; `showArmed` looks the count up again,
 * `showLatency` puts the sandbox's latency in the box.
 */
export function sandboxControls(current: () => FormEmbedElement | null) {
  listFailCodes();
  const showArmed = armedFailures();
  const latency = latencyBox();
  // Any amount, not a few fixed steps: just before and just past a session's lapse (1800 s from
  // its mint) or a handle's 120 s are amounts no sum of 60, 121 and 1800 makes.
  wholeNumberBox('clock', { min: 1, max: MAX_CLOCK_SECONDS, unit: 'seconds' }, (seconds) =>
    control('advance-clock', { seconds }, `the sandbox clock moved ${seconds} s forward.`),
  );
  const actions = controlActions(current, showArmed, latency);
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-action]')) {
    button.addEventListener('click', () => actions[button.dataset.action ?? '']?.());
  }
  return { showArmed, showLatency: latency.fromSandbox };
}

/** The SessionError codes Arm can make a mint fail with, and one this release does not know. */
function listFailCodes() {
  for (const code of knownSessionErrorCodes) {
    const { status, retryable } = SessionErrorCodes[code];
    byId<HTMLSelectElement>('fail-code').add(
      new Option(
        `${code} (${status ?? UNKNOWN_CODE_STATUS}${retryable ? ', retryable' : ''})`,
        code,
      ),
    );
  }
  byId<HTMLSelectElement>('fail-code').add(
    new Option('seat_limit_reached (a code unknown to this release)', 'seat_limit_reached'),
  );
}

function postControl(action: string, body: unknown = {}) {
  return fetch(`/demo/control/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Posts `action`; the result line names it `done`, where its path would mislead (`fail`). */
async function control(action: string, body: unknown = {}, done = action) {
  const say = resultSayer();
  const answer = await postControl(action, body);
  say(answer.ok ? `Done: ${done}` : `The sandbox refused ${action} (${answer.status})`);
}

/**
 * Returns `showArmed`, which shows how many mints and framed pages the failures armed with the Arms
 * will still fail, as the sandbox counts them: each failure uses one up, whichever page had it.
 */
function armedFailures() {
  const armed = byId<HTMLParagraphElement>('armed');
  let armedAsks = 0;
  let armedPoll: ReturnType<typeof setTimeout> | undefined;
  async function showArmed() {
    clearTimeout(armedPoll);
    const asked = ++armedAsks;
    const answer = await postControl('stats').catch(() => undefined);
    const faults = answer?.ok
      ? ((await answer.json()) as { faults?: { session?: number; redeem?: number } }).faults
      : undefined;
    if (asked !== armedAsks) return; // a later look has begun: its answer is the newer one
    const { session: mints, redeem: pages } = faults ?? {};
    const left = mints === undefined || pages === undefined ? undefined : mints + pages;
    const failing = [
      mints && `the next ${mints === 1 ? 'mint fails' : `${mints} mints fail`}`,
      pages &&
        `the next ${pages === 1 ? 'framed page fails' : `${pages} framed pages fail`} to open`,
    ].filter(Boolean);
    const text =
      left === undefined
        ? 'Armed failures: unknown (the sandbox did not say).'
        : left === 0
          ? 'Armed failures: none.'
          : `Armed failures: ${left} (${failing.join('; ')}).`;
    // Written only when it changes: a live region rewritten each second may be read out each time.
    if (armed.textContent !== text) armed.textContent = text;
    if (left === undefined) return;
    // Mints on the other demo pages, or in another tab, use them up too: look again while any is left.
    if (left > 0) armedPoll = setTimeout(showArmed, 1_000);
  }
  return showArmed;
}

/**
 * The upstream latency box: Set sends its milliseconds. Returns `backToZero`, which puts the box
 * back to 0, as Reset leaves the sandbox, and `fromSandbox`, which shows the sandbox's latency.
 */
function latencyBox() {
  const latencyInput = byId<HTMLInputElement>('latency');
  let typed = false;
  const checkLatency = wholeNumberBox(
    'latency',
    { min: 0, max: MAX_LATENCY_MS, unit: 'milliseconds' },
    (ms) => control('latency', { ms }, `upstream latency ${ms} ms.`),
  );
  latencyInput.addEventListener('input', () => {
    typed = true;
  });
  return {
    backToZero() {
      latencyInput.value = '0';
      checkLatency();
    },
    /**
     * The sandbox keeps its latency through a reload of this page (or sets it for another tab):
     * the box's 0 from the HTML would say no latency while every mint waits.
     */
    async fromSandbox() {
      const answer = await postControl('stats').catch(() => undefined);
      const stats = answer?.ok ? ((await answer.json()) as { latencyMs?: unknown }) : undefined;
      // Not over what the tester has begun to type meanwhile.
      if (typeof stats?.latencyMs === 'number' && !typed) {
        latencyInput.value = String(stats.latencyMs);
      }
    },
  };
}

const burnSaid: Record<Burnt, string> = {
  burnt: 'Done: burn (the frame reloaded)',
  'no handle': 'Done: the frame reloaded; this form has no handle (provider none), so no remint.',
  'no frame': 'No frame to reload.',
};

/** What each `data-action` button does. */
function controlActions(
  current: () => FormEmbedElement | null,
  showArmed: () => Promise<void>,
  latency: { backToZero(): void },
): Record<string, () => unknown> {
  return {
    expire: () => control('expire-sessions'),
    burn: () => resultSayer()(burnSaid[burnHandle(current())]),
    remint: () => {
      current()?.remint();
      resultSayer()(current() ? 'Done: remint' : 'No form to remint.');
    },
    fail: async () => {
      const code = byId<HTMLSelectElement>('fail-code').value;
      // The sandbox takes the status and retryable flag from the SessionError table.
      const retryable = isKnownSessionErrorCode(code) && SessionErrorCodes[code].retryable;
      await control(
        'fail',
        { kind: 'error', scope: 'session', code, ...(retryable ? { retryAfter: 3 } : {}) },
        `armed ${code}`,
      );
      await showArmed();
    },
    // The framed page's redemption of its handle: what code it fails with, the element never sees.
    'fail-redeem': async () => {
      const fault = { kind: 'error', scope: 'redeem', code: 'invalid_request', status: 401 };
      await control('fail', fault, 'armed a failed handle');
      await showArmed();
    },
    'exhaust-mints': () =>
      control(
        'exhaust-rate-limit',
        { kind: 'mints' },
        'mints used up. For a minute of the sandbox clock each mint answers rate_limited (429).',
      ),
    reset: async () => {
      await control('reset');
      await showArmed();
      // The sandbox is as it started: no latency, no armed failure, no session (so the form is
      // reminted, or its next submit would find its session gone).
      latency.backToZero();
      current()?.remint();
    },
  };
}
