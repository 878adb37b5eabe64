/**
 * The answers of the API's routes once a request is authenticated, within its limit and not
 * faulted: the catalogue reads, the two mints (mint-answer.ts) and the description.
 */
import type { Request, Response } from 'express';
import type { MatchedRoute } from './api-routes.js';
import { clientsOf, coreForms, formsOf, organisations } from './fixtures.js';
import { mint } from './mint-answer.js';
import { openApiDocument } from './openapi.js';
import { toClient, toCoreForm, toForm } from './resources.js';
import type { SandboxState } from './sandbox-state.js';

export interface Call {
  req: Request;
  res: Response;
  route: MatchedRoute;
  organisationId: string;
  /** Set by a `foreignEmbedUrl` fault: the origin the next embedUrl is put on. */
  foreignOrigin: string | undefined;
}

export async function answer(state: SandboxState, call: Call): Promise<void> {
  const { req, res, route, organisationId } = call;
  const { formsOrigin, coreFormsOrigin } = state.origins;
  switch (route.name) {
    case 'me': {
      const org = organisations.find((o) => o.organisationId === organisationId);
      return void res.json({ ...org, formsOrigin, coreFormsOrigin });
    }
    case 'clients': {
      const page = readPage(req.query);
      if (typeof page === 'string') return void res.status(400).json({ error: page });
      const own = clientsOf(organisationId);
      return void res.json({
        clients: own.slice(page.offset, page.offset + page.limit).map(toClient),
        total: own.length,
        hasMore: page.offset + page.limit < own.length,
      });
    }
    case 'client': {
      const client = clientsOf(organisationId).find((c) => c.id === route.params.clientId);
      if (!client) return void res.status(404).json({ error: 'No such client.' });
      return void res.json(toClient(client));
    }
    case 'forms': {
      const own = formsOf(organisationId);
      return void res.json({ forms: own.map((f) => toForm(f, formsOrigin)) });
    }
    case 'coreForms': {
      const own = ownTenants(organisationId);
      return void res.json({ forms: coreForms.map((f) => toCoreForm(f, coreFormsOrigin, own)) });
    }
    case 'coreForm': {
      const form = coreForms.find((f) => f.slug === route.params.slug);
      if (!form) return void res.status(404).json({ error: 'No such Core form.' });
      return void res.json(toCoreForm(form, coreFormsOrigin, ownTenants(organisationId)));
    }
    case 'formSession':
    case 'coreFormSession':
      return mint(state, call);
    case 'openapi':
      return void res.json(openApiDocument());
  }
}

/**
 * The tenants of the organisation's clients, lower-cased. The Core forms are everyone's, but a
 * client override belongs to the organisation of its client (docs/contract.md#sandbox-choices).
 */
function ownTenants(organisationId: string): Set<string> {
  return new Set(clientsOf(organisationId).map((c) => c.microsoftTenantId.toLowerCase()));
}

/**
 * Reads `limit` (1..100, default 50) and `offset` (>= 0, with no upper bound: past the end is an
 * empty page); a string names the bad parameter and what is wrong with it.
 */
function readPage(query: Request['query']): { limit: number; offset: number } | string {
  const read = (name: 'limit' | 'offset', fallback: number, min: number, max = Infinity) => {
    const raw = query[name];
    if (raw === undefined) return fallback;
    if (typeof raw !== 'string' || !/^-?\d+$/.test(raw)) return `${name} must be an integer`;
    const value = Number(raw);
    if (value < min || value > max) {
      return max === Infinity
        ? `${name} must be at least ${min}`
        : `${name} must be between ${min} and ${max}`;
    }
    return value;
  };
  const limit = read('limit', 50, 1, 100);
  if (typeof limit === 'string') return limit;
  const offset = read('offset', 0, 0);
  if (typeof offset === 'string') return offset;
  return { limit, offset };
}
