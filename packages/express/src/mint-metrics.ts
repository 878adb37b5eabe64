import type { FormTarget } from '@form-embed/protocol';
import type { Response } from 'express';
import { recordMint } from './metrics.js';

const outcomeCode = Symbol('form-embed outcome code');

/** Remembers the SessionError code a request is answered with, for the mint counter. */
export function noteOutcome(res: Response, code: string): void {
  (res.locals as Record<symbol, string>)[outcomeCode] = code;
}

/** First on each mint route: counts the mint once its answer is sent (`form_embed.mints`). */
export function countMint(res: Response, kind: FormTarget['kind']): void {
  res.once('finish', () => {
    const code = (res.locals as Record<symbol, string | undefined>)[outcomeCode];
    recordMint(kind, code ?? (res.statusCode < 400 ? 'ok' : 'unknown'), res.statusCode);
  });
}
