/**
 * Reads a request body, called only once a request is authenticated and routed to an endpoint
 * that takes a body (the stripe-mock order), so a body the parser refuses never hides a 401 or
 * a 404. body-parser's refusals (400, 413, 415) become a message naming the problem.
 */
import express, { type Request, type Response } from 'express';

export const BODY_LIMIT = '64kb';

const parseText = express.text({ type: () => true, limit: BODY_LIMIT });

export type BodyRead = { ok: true; text: string } | { ok: false; message: string };

/** The body as text (`''` when there is none), or the problem the parser found with it. */
export function readBody(req: Request, res: Response): Promise<BodyRead> {
  return new Promise((resolve, reject) => {
    parseText(req, res, (error?: unknown) => {
      if (error === undefined) {
        return resolve({ ok: true, text: typeof req.body === 'string' ? req.body : '' });
      }
      const message = describeBodyProblem(error);
      if (message === undefined) reject(error);
      else resolve({ ok: false, message });
    });
  });
}

/** The message for a body-parser refusal (a 4xx error); undefined for any other error. */
export function describeBodyProblem(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { status, type, code } = error as { status?: unknown; type?: unknown; code?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499) return undefined;
  switch (type) {
    case 'entity.too.large':
      return `The body is too large: at most ${BODY_LIMIT}.`;
    case 'charset.unsupported':
      return 'The body has an unsupported charset: send it as UTF-8.';
    case 'encoding.unsupported':
      return 'The body has an unsupported Content-Encoding: use identity, gzip, deflate or br.';
    case 'entity.parse.failed':
      return 'The body is not valid JSON.';
  }
  if (typeof code === 'string' && code.startsWith('Z_')) {
    return 'The body could not be decompressed as its Content-Encoding says.';
  }
  return 'The body could not be read: its length does not match Content-Length.';
}
