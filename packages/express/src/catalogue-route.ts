import {
  type Catalogue,
  type CatalogueEntry,
  type Client,
  ClientSchema,
  CoreFormSchema,
  type Form,
  FormSchema,
  type FormSessionUser,
  isWithdrawnForTenant,
} from '@form-embed/protocol';
import type { Request, RequestHandler, Response } from 'express';
import { z } from 'zod';
import { isAuthorized } from './authorize.js';
import type { Logger } from './logger.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { resolvedUserOf } from './resolve-user.js';
import type { ServiceClient } from './service-client.js';

const FormsAnswerSchema = z.object({ forms: z.array(FormSchema) });
const CoreFormsAnswerSchema = z.object({ forms: z.array(CoreFormSchema) });

interface CatalogueDependencies {
  client: ServiceClient;
  authorize: FormEmbedSessionsConfig['authorize'];
  logger: Logger;
}

/**
 * `GET /forms`: what a portal menu may offer the signed-in user. Designer forms that are
 * `embeddable` (the contract says to branch on that field, never on authType), Core forms that
 * are embeddable and not withdrawn by an override for the user's client, each passed through
 * `authorize`.
 */
export function catalogueRoute(deps: CatalogueDependencies): RequestHandler {
  return async function catalogue(req: Request, res: Response) {
    const user = resolvedUserOf(res);
    const [forms, coreForms, tenant] = await Promise.all([
      deps.client.read('forms', FormsAnswerSchema),
      deps.client.read('coreForms', CoreFormsAnswerSchema),
      userTenant(deps.client, deps.logger, user),
    ]);
    const candidates: CatalogueEntry[] = [
      ...(forms?.forms ?? []).filter((form) => form.embeddable).map(designerEntry),
      ...(tenant.known ? (coreForms?.forms ?? []) : [])
        .filter(
          (form) =>
            form.embeddable &&
            (tenant.tenantId === undefined || !isWithdrawnForTenant(form, tenant.tenantId)),
        )
        .map((form): CatalogueEntry => ({ kind: 'coreForm', slug: form.slug, name: form.name })),
    ];
    const allowed = await Promise.all(
      candidates.map((entry) =>
        isAuthorized(
          deps.authorize,
          req,
          entry.kind === 'form'
            ? { kind: 'form', formId: entry.formId }
            : { kind: 'coreForm', slug: entry.slug },
          deps.logger,
        ),
      ),
    );
    const answer: Catalogue = { forms: candidates.filter((_, index) => allowed[index]) };
    res.set('Cache-Control', 'no-store').status(200).json(answer);
  };
}

function designerEntry(form: Form): CatalogueEntry {
  // An embeddable form is microsoft, google or none by the contract; authType is informative here.
  const authType = form.authType as Extract<CatalogueEntry, { kind: 'form' }>['authType'];
  return { kind: 'form', formId: form.id, name: form.name, authType };
}

/**
 * The identity tenant whose client override applies to this user, from the user's client:
 * the one named by `clientId`, else the one whose tenant is the user's `microsoftTenantId`.
 * `known: false` when the user names a client or tenant the organisation does not have: no
 * Core form can be minted for such a user.
 */
async function userTenant(
  client: ServiceClient,
  logger: Logger,
  user: FormSessionUser | undefined,
): Promise<{ known: boolean; tenantId: string | undefined }> {
  if (user?.clientId) {
    const found = await client.read('client', ClientSchema, {
      params: { clientId: user.clientId },
      notFound: 'undefined',
    });
    return {
      known: found !== undefined,
      tenantId: found?.microsoftTenantId.toLowerCase() || undefined,
    };
  }
  if (user?.microsoftTenantId) {
    const tenantId = user.microsoftTenantId.toLowerCase();
    const found = await findClient(
      client,
      logger,
      (c) => c.microsoftTenantId.toLowerCase() === tenantId,
    );
    return { known: found !== undefined, tenantId };
  }
  return { known: true, tenantId: undefined };
}

const ClientsPageSchema = z.object({
  clients: z.array(ClientSchema),
  total: z.int().min(0),
  hasMore: z.boolean(),
});
const PAGE_SIZE = 100;
/** 5,000 clients: a list that claims more is not believed (a reader must end). */
const MAX_PAGES = 50;

/**
 * Pages through the organisation's clients until `matches` finds one. Stops at the last page
 * (`hasMore` false, an empty page, or the offset reaching `total`) and after `MAX_PAGES` pages,
 * which counts as not found (the user gets no Core form) and is logged.
 */
async function findClient(
  client: ServiceClient,
  logger: Logger,
  matches: (candidate: Client) => boolean,
): Promise<Client | undefined> {
  for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex += 1) {
    const offset = pageIndex * PAGE_SIZE;
    const page = await client.read('clients', ClientsPageSchema, {
      query: { limit: String(PAGE_SIZE), offset: String(offset) },
    });
    if (page === undefined) return undefined;
    const found = page.clients.find(matches);
    if (found !== undefined) return found;
    const last = !page.hasMore || page.clients.length === 0 || offset + PAGE_SIZE >= page.total;
    if (last) return undefined;
  }
  logger.warn(
    `the clients list still had more after ${MAX_PAGES} pages of ${PAGE_SIZE}; the user's tenant counts as not found`,
  );
  return undefined;
}
