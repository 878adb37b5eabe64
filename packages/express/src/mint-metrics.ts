import type { FormTarget } from '@form-embed/protocol';
import type { Request, Response } from 'express';
import { recordMint } from './metrics.js';

const mintKind = Symbol('form-embed mint kind');

interface MintMark {
  kind: FormTarget['kind'];
  /** `performance.now()` when the mint route (or the cross-site check) began it. */
  startedAt: number;
}

/**
 * First on each mint route: marks the request as a mint of `kind`, so that its answer is
 * counted (`form_embed.mints`) and timed (`form_embed.mint.duration`) when it is sent, by
 * `countAnswer`. Counted where it is answered rather than on the response's `finish` event, a
 * listener and an event per mint.
 */
export function countMint(res: Response, kind: FormTarget['kind']): void {
  (res.locals as Record<symbol, MintMark | undefined>)[mintKind] = {
    kind,
    startedAt: performance.now(),
  };
}

/** Counts the answer of a mint request once, as `ok` or its SessionError code; other routes are not counted. */
export function countAnswer(res: Response, outcome: string): void {
  const locals = res.locals as Record<symbol, MintMark | undefined>;
  const mark = locals[mintKind];
  if (mark === undefined) return;
  locals[mintKind] = undefined;
  recordMint(mark.kind, outcome, res.statusCode, mark.startedAt);
}

/** The two mint routes, as the router matches them (without case, a trailing slash allowed). */
const MINT_PATH = /^\/(forms|core-forms)\/[^/]+\/session\/?$/i;

/**
 * Marks a mint request refused before its route ran (the cross-site check, on every route), so
 * that it is counted too: a portal behind a proxy that Express's `trust proxy` does not know has
 * every mint refused there, and the count is what an alert can see.
 */
export function countMintRefusedEarly(req: Request, res: Response): void {
  if (req.method !== 'POST') return;
  const kind = MINT_PATH.exec(req.path)?.[1]?.toLowerCase();
  if (kind !== undefined) countMint(res, kind === 'forms' ? 'form' : 'coreForm');
}
