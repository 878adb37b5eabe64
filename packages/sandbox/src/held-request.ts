import type { Request, Response } from 'express';
import type { SandboxState } from './sandbox-state.js';
import { sleep } from './sleep.js';

/**
 * Holds a request `ms` (the latency, a delay fault): true when it then goes on. The held time is
 * the request still on its way, so one whose client goes meanwhile is dropped as it goes, and one
 * held when `reset()` comes belongs to the test before: its connection is closed, as a `reset`
 * fault closes it. Neither takes anything more from the state (token, fault, handle, session).
 */
export async function held(
  state: SandboxState,
  req: Request,
  res: Response,
  ms: number,
): Promise<boolean> {
  if (req.socket.destroyed) {
    // Its client went before it was held: dropped as well, for a test waiting on the count.
    state.countDropped();
    return false;
  }
  const reset = state.heldSignal;
  // One controller that either ends, its listeners taken off after. Not AbortSignal.any: on Node
  // 20 each signal it makes stays in a set of the reset signal's, which lives until reset().
  const ended = new AbortController();
  const end = () => ended.abort();
  // The connection's close too: a request pipelined behind another's answer has a response
  // with no connection yet, which does not close when its client goes.
  res.once('close', end);
  req.socket.once('close', end);
  reset.addEventListener('abort', end, { once: true });
  const slept = await sleep(ms, ended.signal);
  res.off('close', end);
  req.socket.off('close', end);
  reset.removeEventListener('abort', end);
  if (reset.aborted) req.socket.destroy();
  else if (!slept) state.countDropped();
  return slept && !reset.aborted;
}
