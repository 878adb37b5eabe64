import type { Request, Response } from 'express';
import { sessionError } from './session-error-response.js';
import { withTimeout } from './with-timeout.js';

/** The most bytes of a mint request's body that are read (the element sends `{}`). */
const MAX_MINT_BODY_BYTES = 16 * 1024;

// As body-parser's strict JSON: only an object or an array, after optional whitespace.
const OBJECT_OR_ARRAY = /^[\t\n\r ]*[[{]/;
const utf8 = new TextDecoder();

/**
 * Reads a mint request's body only to refuse a malformed one: not JSON (an object or array),
 * over `MAX_MINT_BODY_BYTES`, compressed, cut off, or not in full within `timeoutMs` (a body
 * that never ends must not hold the mint until the server's own `requestTimeout`, five minutes
 * in Node, or for ever where that is off). Nothing in it is used. Resolves at once
 * when there is no body, or when the portal's own body parser already read it. A few lines
 * instead of body-parser, whose stream plumbing cost more per mint than the rest of the checks.
 */
export function readJsonBody(
  req: Request,
  res: Response,
  timeoutMs: number,
): Promise<void> | undefined {
  if (!req.readable || req.headers['content-length'] === '0') return undefined;
  const declared = Number(req.headers['content-length']);
  if (declared > MAX_MINT_BODY_BYTES) return Promise.reject(unread(req, res, 'large'));
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding !== undefined && encoding !== 'identity') {
    return Promise.reject(bodyError('encoded'));
  }
  // The listeners stay once settled: a body refused unread is paused and its connection closed
  // (`unread`); one read to its end has nothing left.
  const read = new Promise<void>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_MINT_BODY_BYTES) {
        chunks.push(chunk);
      } else {
        reject(unread(req, res, 'large'));
      }
    });
    req.once('end', () => {
      const text = utf8.decode(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
      if (text === '' || isJsonObjectOrArray(text)) resolve();
      else reject(bodyError('notJson'));
    });
    req.once('error', () => reject(bodyError('cutOff')));
  });
  return withTimeout(read, timeoutMs, () => unread(req, res, 'late'));
}

function isJsonObjectOrArray(text: string): boolean {
  if (!OBJECT_OR_ARRAY.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

const bodyMessages = {
  large: 'The request body is too large.',
  notJson: 'The request body is not valid JSON.',
  encoded: 'The request body must not be compressed (Content-Encoding).',
  cutOff: 'The request body was not received in full.',
  late: 'The request body was not received in time.',
} as const;

/**
 * The refusal of a body left partly unread: the rest would keep the connection (Node reads a
 * request's body to its end before the next), so it is closed once the refusal is sent.
 */
function unread(req: Request, res: Response, kind: 'large' | 'late') {
  req.pause();
  res.setHeader('Connection', 'close');
  return bodyError(kind);
}

function bodyError(kind: keyof typeof bodyMessages) {
  return sessionError('invalid_request', bodyMessages[kind]);
}
