import type { Response } from 'express';

/**
 * Thrown to end a mint whose browser has gone (the element aborted it: the page removed it, a
 * new form, a remint, or the person left): nothing is answered and nothing logged, and the mint
 * is counted as `client_closed_request`.
 */
export class BrowserGone extends Error {
  override readonly name = 'BrowserGone';
}

/**
 * Whether the browser's request is gone: its response closed before it was written. (`req`'s
 * `close` is no sign of it: Node fires that once the body is read.)
 */
export function isBrowserGone(res: Response): boolean {
  return res.closed && !res.writableFinished;
}

/**
 * A controller aborted with a `BrowserGone` when the browser goes (at once if it has), for the
 * upstream request to end on: one `close` listener, taken only as the mint goes upstream.
 */
export function browserGoneController(res: Response): AbortController {
  const controller = new AbortController();
  const gone = () => {
    if (!res.writableFinished) controller.abort(new BrowserGone('the browser has gone'));
  };
  if (res.closed) gone();
  else res.once('close', gone);
  return controller;
}
