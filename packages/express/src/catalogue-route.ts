import {
  type Catalogue,
  type CatalogueEntry,
  type FormSessionUser,
  type FormTarget,
  formRefRefusal,
  isWithdrawnForTenant,
} from '@form-embed/protocol';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { countAnswer, countBrowserGone } from './answer-metrics.js';
import { isAuthorized } from './authorize.js';
import { isBrowserGone } from './browser-gone.js';
import type { CatalogueReads, UserTenant } from './catalogue-reads.js';
import type { ListedCoreForm, ListedForm } from './catalogue-records.js';
import { logOnce } from './log-once.js';
import { describe, type Logger, shownValue } from './logger.js';
import type { FormEmbedSessionsConfig } from './options.js';
import { resolvedUserOf } from './resolve-user.js';
import { portalError, SessionErrorResponse } from './session-error-response.js';

interface CatalogueDependencies {
  reads: CatalogueReads;
  authorize: FormEmbedSessionsConfig['authorize'];
  logger: Logger;
}

/**
 * `GET /forms` needs a signed-in user: nobody signed in is `sign_in_required`, unless the
 * portal offers a menu to signed-out visitors (`catalogue.signedOut`).
 */
export function requireSignInForCatalogue(signedOut: boolean): RequestHandler {
  return function requireSignInForCatalogue(_req: Request, res: Response, next: NextFunction) {
    if (!signedOut && resolvedUserOf(res) === undefined) throw portalError('sign_in_required');
    next();
  };
}

/**
 * `GET /forms`: what a portal menu may offer the signed-in user. Designer forms that are
 * `embeddable` (the contract says to branch on that field, not on authType) and that the user's
 * own fields and client can open (`opensFor`), Core forms that are embeddable and not withdrawn
 * by an override for the user's client, each passed through `authorize`
 * (docs/contract.md#designer-forms, docs/contract.md#core-forms). Signed out
 * (`catalogue.signedOut`), only the designer forms that need no user.
 */
export function catalogueRoute(deps: CatalogueDependencies): RequestHandler {
  // The Core forms list and the clients' tenants are read at paths and in shapes the contract
  // does not show (docs/contract.md#paths-we-chose): when one of them is not what we expect,
  // the menu still offers the designer forms, each failure logged once until that read works.
  const coreForms = partOfMenu('the Core forms list', () => deps.reads.coreForms(), deps.logger);
  const tenantOf = partOfMenu(
    "the user's client",
    deps.reads.tenantOf.bind(deps.reads),
    deps.logger,
  );
  /**
   * The user's client, as far as the menu needs it. With an identifier, for the Core and the
   * microsoft forms: a read that says wait fails the menu, as the lists' own do. With a clientId
   * alone, only to leave out a client the organisation does not have: a failed read keeps the
   * menu these users had before their client was read at all. Else none is read.
   */
  const clientOf = (user: FormSessionUser | undefined) => {
    if (user?.userIdentifier) return tenantOf(user);
    if (user?.clientId) return tenantOf(user).catch(() => undefined);
    return undefined;
  };
  const mintable = mintableEntries(deps.logger);
  return async function catalogue(req: Request, res: Response) {
    // A browser that has gone is read nothing for. A read already out is not ended: concurrent
    // menus share it, and it fills the cache.
    if (isBrowserGone(res)) return countBrowserGone(res);
    const user = resolvedUserOf(res);
    // A Core session needs the user's identifier, as a microsoft form's does
    // (docs/contract.md#core-forms): without one, the Core forms are not read.
    const [forms, tenant, listedCoreForms] = await Promise.all([
      deps.reads.forms(),
      clientOf(user),
      user?.userIdentifier ? coreForms() : undefined,
    ]);
    const offeredCoreForms =
      tenant === undefined ? [] : (listedCoreForms ?? []).filter((f) => isOfferedTo(f, tenant));
    const candidates = mintable([
      ...forms.filter((form) => form.embeddable && opensFor(form, user, tenant)).map(designerEntry),
      ...offeredCoreForms.map(coreEntry),
    ]);
    const allowed = await Promise.all(
      candidates.map((entry) =>
        isAuthorized(deps.authorize, req, targetOfEntry(entry), deps.logger),
      ),
    );
    const answer: Catalogue = { forms: candidates.filter((_, index) => allowed[index]) };
    if (isBrowserGone(res)) return countBrowserGone(res);
    res.set('Cache-Control', 'no-store').status(200);
    countAnswer(res, 'ok');
    res.json(answer);
  };
}

/**
 * `read` for a part of the menu the designer forms can do without: undefined when it fails as a
 * path or shape we chose can (a bad shape, an `invalid_request`), logged once until it works
 * again. A failure that says wait or fix the key (`rate_limited`, `unavailable`,
 * `invalid_api_key`) fails the whole menu, as the designer forms' read would.
 */
function partOfMenu<A extends unknown[], T>(
  what: string,
  read: (...args: A) => Promise<T>,
  logger: Logger,
): (...args: A) => Promise<T | undefined> {
  let told = false;
  return async (...args) => {
    try {
      const value = await read(...args);
      told = false;
      return value;
    } catch (error) {
      const code = error instanceof SessionErrorResponse ? error.answer.code : undefined;
      if (code === 'rate_limited' || code === 'unavailable' || code === 'invalid_api_key') {
        throw error;
      }
      if (!told) {
        logger.warn(
          `${what} could not be read: the catalogue lists the designer forms only until it can`,
          {
            error: describe(error),
          },
        );
      }
      told = true;
      return undefined;
    }
  };
}

/**
 * Whether a designer form can open for `user`, as far as the contract's FormSessionRequest lets
 * the user's own fields and client tell, so that a menu does not offer a certain refusal
 * (docs/contract.md#designer-forms): signed out, only a form that needs no user; a client named
 * that the organisation does not have, none (`client_not_found`); a microsoft form needs the
 * user's identifier and a client of the organisation's with a Microsoft tenant, as a Core form
 * does (else `invalid_request`, `client_not_connected`, `tenant_not_connected`); a google form
 * the identifier. Whether the directory has the user is the service's to say (`user_not_found`).
 * An authType this release does not know is offered: clients branch on `embeddable`. `tenant`
 * undefined: the client could not be read, and only the user's own fields count.
 */
function opensFor(
  form: ListedForm,
  user: FormSessionUser | undefined,
  tenant: UserTenant | undefined,
): boolean {
  if (user === undefined) return form.authType === 'none';
  if (user.clientId && tenant?.known === false) return false;
  if (form.authType === 'google') return Boolean(user.userIdentifier);
  if (form.authType !== 'microsoft') return true;
  if (!user.userIdentifier) return false;
  return tenant === undefined
    ? Boolean(user.clientId || user.microsoftTenantId)
    : tenant.known && tenant.tenantId !== undefined;
}

/**
 * Embeddable, for a user whose client the organisation has and has a Microsoft tenant (a Core
 * session runs against it: docs/contract.md#core-forms), and not withdrawn for that tenant.
 */
function isOfferedTo(form: ListedCoreForm, tenant: UserTenant): boolean {
  if (tenant.tenantId === undefined || !tenant.known || !form.embeddable) return false;
  return !isWithdrawnForTenant(form, tenant.tenantId);
}

function designerEntry(form: ListedForm): CatalogueEntry {
  return { kind: 'form', formId: form.id, name: form.name, authType: form.authType };
}

function coreEntry(form: ListedCoreForm): CatalogueEntry {
  return { kind: 'coreForm', slug: form.slug, name: form.name };
}

function targetOfEntry(entry: CatalogueEntry): FormTarget {
  return entry.kind === 'form'
    ? { kind: 'form', formId: entry.formId }
    : { kind: 'coreForm', slug: entry.slug };
}

/**
 * Leaves out the forms the mint route would refuse by their id or slug (`formRefRefusal`): a
 * menu must not offer what cannot open. Each such form is logged the first time it is left out.
 */
function mintableEntries(logger: Logger): (entries: CatalogueEntry[]) => CatalogueEntry[] {
  const tell = logOnce(logger, 'error');
  return (entries) =>
    entries.filter((entry) => {
      const target = targetOfEntry(entry);
      const refusal = formRefRefusal(target);
      if (refusal === undefined) return true;
      const what = `${target.kind === 'form' ? 'form' : 'Core form'} ${shownRef(entry)}`;
      tell(`GET /forms leaves out ${what}, which the service listed: ${refusal}`, what);
      return false;
    });
}

/** A refused id or slug as the service listed it, fit for a log line (`shownValue`). */
function shownRef(entry: CatalogueEntry): string {
  return shownValue(entry.kind === 'form' ? entry.formId : entry.slug);
}
