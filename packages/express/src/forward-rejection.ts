import type { RequestHandler } from 'express';

/**
 * Passes an async handler's rejection to `next`, as Express 5 does by itself. Express 4 does
 * not: there the rejection would go unhandled and the request hang without an answer. The
 * wrapper takes the handler's name, so Express's layer and a profile still say which it is.
 */
export function forwardRejection(handler: RequestHandler): RequestHandler {
  function forwardingRejection(...[req, res, next]: Parameters<RequestHandler>) {
    Promise.resolve(handler(req, res, next)).catch(next);
  }
  return Object.defineProperty(forwardingRejection, 'name', { value: handler.name });
}
