/** The two form-session endpoints' answer: a FormSession, or a SessionError. */
import type { FormSession, FormTarget } from '@form-embed/protocol';
import type { Call } from './api-answers.js';
import { sendSessionError } from './api-errors.js';
import { parseFormSessionBody } from './form-session-body.js';
import { decideFormSession } from './form-session-rules.js';
import { readBody } from './request-body.js';
import { coreFormPath, designerFormPath } from './resources.js';
import type { SandboxState } from './sandbox-state.js';

export async function mint(state: SandboxState, call: Call): Promise<void> {
  const { req, res, route, organisationId, foreignOrigin } = call;
  const read = await readBody(req, res);
  if (!read.ok) return sendSessionError(res, 'invalid_request', read.message);
  // Bodies are JSON in both directions (docs/contract.md): a body of another type is not read.
  if (read.text !== '' && !req.is('application/json')) {
    return sendSessionError(
      res,
      'invalid_request',
      'Send the body as Content-Type: application/json.',
    );
  }
  const body = parseFormSessionBody(read.text);
  if ('ok' in body) return sendSessionError(res, body.code, body.message);
  const target: FormTarget =
    route.name === 'formSession'
      ? { kind: 'form', formId: route.params.formId ?? '' }
      : { kind: 'coreForm', slug: route.params.slug ?? '' };
  const decision = decideFormSession(
    { organisationId, microsoftConnection: state.microsoftConnection },
    target,
    body.user,
  );
  if (!decision.ok) {
    if (decision.retryAfter !== undefined) res.set('Retry-After', String(decision.retryAfter));
    return void sendSessionError(res, decision.code, decision.message);
  }
  const origin =
    foreignOrigin ??
    (target.kind === 'form' ? state.origins.formsOrigin : state.origins.coreFormsOrigin);
  const page =
    origin + (target.kind === 'form' ? designerFormPath(target.formId) : coreFormPath(target.slug));
  if (!decision.handle) {
    const session: FormSession = { embedUrl: page, provider: decision.provider, expiresIn: 0 };
    return void res.json(session);
  }
  const handle = state.sessions.mint(target, decision.provider, decision.identifier);
  const session: FormSession = {
    embedUrl: `${page}?handle=${encodeURIComponent(handle)}`,
    provider: decision.provider,
    expiresIn: state.config.handleTtlSeconds,
    formSessionHandle: handle,
  };
  res.json(session);
}
