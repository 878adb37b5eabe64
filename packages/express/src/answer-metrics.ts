import { CATALOGUE_PATH } from '@form-embed/protocol';
import type { NextFunction, Request, Response } from 'express';
import { type AnsweredRequest, CLIENT_CLOSED, recordAnswer } from './metrics.js';

const countedRequest = Symbol('form-embed counted request');

interface CountMark {
  request: AnsweredRequest;
  /** `performance.now()` when the route (or the cross-site check) began it. */
  startedAt: number;
}

/**
 * First on each mint route and on the catalogue's: marks the request as a mint of a form kind,
 * or a catalogue request, so that its answer is counted (`form_embed.mints`,
 * `form_embed.catalogue.requests`) and timed (`form_embed.mint.duration`,
 * `form_embed.catalogue.duration`) when it is sent, by `countAnswer`. Counted where it is
 * answered rather than on the response's `finish` event, a listener and an event per request.
 */
export function countRequest(res: Response, request: AnsweredRequest): void {
  (res.locals as Record<symbol, CountMark | undefined>)[countedRequest] = {
    request,
    startedAt: performance.now(),
  };
}

/** `countRequest(res, 'catalogue')` as the first handler of `GET /forms`. */
export function countCatalogueRequest(_req: Request, res: Response, next: NextFunction): void {
  countRequest(res, 'catalogue');
  next();
}

/** Counts the answer of a marked request once, as `ok` or its SessionError code; other routes are not counted. */
export function countAnswer(res: Response, outcome: string): void {
  const mark = takeMark(res);
  if (mark !== undefined) recordAnswer(mark.request, outcome, res.statusCode, mark.startedAt);
}

/** Counts a marked request whose browser went before its answer: `client_closed_request`, no status. */
export function countBrowserGone(res: Response): void {
  const mark = takeMark(res);
  if (mark !== undefined) recordAnswer(mark.request, CLIENT_CLOSED, undefined, mark.startedAt);
}

function takeMark(res: Response): CountMark | undefined {
  const locals = res.locals as Record<symbol, CountMark | undefined>;
  const mark = locals[countedRequest];
  locals[countedRequest] = undefined;
  return mark;
}

/** The two mint routes, as the router matches them (without case, a trailing slash allowed). */
const MINT_PATH = /^\/(forms|core-forms)\/[^/]+\/session\/?$/i;

/**
 * What a request refused before its route ran would have been: `GET /forms` (and the HEAD
 * Express answers with it) or a mint, matched as the router matches them; undefined for others.
 */
function requestOf(req: Request): AnsweredRequest | undefined {
  const path = req.path.toLowerCase();
  if (req.method === 'GET' || req.method === 'HEAD') {
    return path === CATALOGUE_PATH || path === `${CATALOGUE_PATH}/` ? 'catalogue' : undefined;
  }
  const kind = req.method === 'POST' ? MINT_PATH.exec(path)?.[1] : undefined;
  if (kind === undefined) return undefined;
  return kind === 'forms' ? 'form' : 'coreForm';
}

/**
 * Marks a mint or catalogue request refused before its route ran (the cross-site check, on
 * every route), so that it is counted too: a portal behind a proxy that Express's `trust proxy`
 * does not know has every mint and menu refused there, and the count is what an alert can see.
 */
export function countRefusedEarly(req: Request, res: Response): void {
  const request = requestOf(req);
  if (request !== undefined) countRequest(res, request);
}
