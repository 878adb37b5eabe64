import type { FormTarget } from '@form-embed/protocol';
import type { Response } from 'express';
import { recordMint } from './metrics.js';

const mintKind = Symbol('form-embed mint kind');

/**
 * First on each mint route: marks the request as a mint of `kind`, so that its answer is
 * counted (`form_embed.mints`) when it is sent, by `countAnswer`. Counted where it is answered
 * rather than on the response's `finish` event, a listener and an event per mint.
 */
export function countMint(res: Response, kind: FormTarget['kind']): void {
  (res.locals as Record<symbol, FormTarget['kind'] | undefined>)[mintKind] = kind;
}

/** Counts the answer of a mint request once, as `ok` or its SessionError code; other routes are not counted. */
export function countAnswer(res: Response, outcome: string): void {
  const locals = res.locals as Record<symbol, FormTarget['kind'] | undefined>;
  const kind = locals[mintKind];
  if (kind === undefined) return;
  locals[mintKind] = undefined;
  recordMint(kind, outcome, res.statusCode);
}
