import { type FormSessionUser, formRefRefusal } from '@form-embed/protocol';
import { LRUCache } from 'lru-cache';
import {
  ClientPageEnvelope,
  clients,
  coreForms,
  designerForms,
  FormListEnvelope,
  type ListedCoreForm,
  type ListedForm,
} from './catalogue-records.js';
import { countBound } from './count-bound.js';
import { ListedRecords, type RecordKind } from './listed-records.js';
import type { Logger } from './logger.js';
import type { ServiceClient } from './service-client.js';

const PAGE_SIZE = 100;
/** 5,000 clients: a list that claims more is not believed (a reader must end). */
const MAX_PAGES = 50;
/** What a walk of the clients list answers when the list changed between the pages it read. */
const LIST_CHANGED = Symbol('the clients list changed');
/** Distinct clients and tenants whose lookups are kept at once. */
const MAX_TENANTS = 10_000;

/** The identity tenant whose Core form overrides apply to a user; `known: false` for a stranger. */
export interface UserTenant {
  known: boolean;
  tenantId: string | undefined;
}

type Load<T> = () => Promise<T>;

/**
 * One page of the clients list, its records read, as the lookup needs it; `last` when no page
 * follows it.
 */
interface ClientPage {
  /**
   * Its clients' Microsoft tenants, lower-cased: all a lookup compares. A whole record (its
   * `integrationMappingIds` without bound) kept for `cacheTtlMs`, for each of up to MAX_PAGES
   * pages, let a hostile service's answers hold some 190 MiB of the portal's memory.
   */
  tenantIds: string[];
  last: boolean;
  /** The list's length when the page was read. */
  total: number;
}

/**
 * The organisation-wide reads behind the catalogue (docs/contract.md#limits), shared by every
 * request for `ttlMs`: concurrent callers of one read wait on the same upstream request
 * (single-flight), a failed read is not kept, and `ttlMs` 0 reads every time. A user's tenant
 * lookup is kept the same way, per client or tenant, and so is each page of the clients list
 * that lookups by tenant page through: however many tenants are looked up, each page is read
 * once a `ttlMs`, not once a tenant (a tenant in no client read every page, up to 50 reads).
 */
export class CatalogueReads {
  readonly #client: ServiceClient;
  readonly #logger: Logger;
  readonly #records: ListedRecords;
  readonly #ttlMs: number;
  readonly #lists: LRUCache<string, object, Load<object>>;
  readonly #tenants: LRUCache<string, UserTenant, Load<UserTenant>>;
  readonly #clientPages: LRUCache<string, ClientPage, Load<ClientPage>>;

  constructor(client: ServiceClient, logger: Logger, ttlMs: number) {
    this.#client = client;
    this.#logger = logger;
    this.#records = new ListedRecords(logger);
    this.#ttlMs = ttlMs;
    // lru-cache takes 0 as "no TTL"; with 0 the caches are never used (see #shared).
    this.#lists = new LRUCache<string, object, Load<object>>({
      max: 2,
      ttl: ttlMs,
      perf: currentPerformance,
      ttlResolution: 0,
      fetchMethod: runLoad,
    });
    this.#tenants = new LRUCache<string, UserTenant, Load<UserTenant>>({
      ...countBound(MAX_TENANTS),
      ttl: ttlMs,
      perf: currentPerformance,
      ttlResolution: 0,
      fetchMethod: runLoad,
    });
    this.#clientPages = new LRUCache<string, ClientPage, Load<ClientPage>>({
      max: MAX_PAGES,
      ttl: ttlMs,
      perf: currentPerformance,
      ttlResolution: 0,
      fetchMethod: runLoad,
    });
  }

  /** The organisation's designer forms. */
  forms(): Promise<ListedForm[]> {
    return this.#formList('forms', designerForms);
  }

  /** The Core forms, with their client overrides. */
  coreForms(): Promise<ListedCoreForm[]> {
    return this.#formList('coreForms', coreForms);
  }

  /**
   * The tenant of the user's client: the one named by `clientId`, else the one whose tenant is
   * the user's `microsoftTenantId`. Keyed by that client or tenant, so the users of one client
   * share one lookup.
   */
  tenantOf(user: FormSessionUser): Promise<UserTenant> {
    if (user.clientId) {
      const clientId = user.clientId;
      // An id no upstream path may hold (`..`, over 200 characters, path syntax: the rule for a
      // form id) names no client the organisation has: not read, and not a read that failed,
      // which would leave the menu offering forms every mint of this user refuses.
      if (formRefRefusal({ kind: 'form', formId: clientId })) {
        return Promise.resolve({ known: false, tenantId: undefined });
      }
      return this.#shared(this.#tenants, `client:${clientId}`, async () => {
        // One record: when it is not in the documented shape, that user's Core forms alone are
        // lost (the catalogue's partOfMenu), as by the list.
        const found = await this.#client.find('client', clients.schema, { params: { clientId } });
        // Read for its log line only (an environment this release does not know), as a list's
        // records are: find's schema has already checked its shape.
        if (found !== undefined) this.#records.read([found], clients);
        const tenantId = found?.microsoftTenantId.toLowerCase() || undefined;
        return { known: found !== undefined, tenantId };
      });
    }
    if (user.microsoftTenantId) {
      const tenantId = user.microsoftTenantId.toLowerCase();
      return this.#shared(this.#tenants, `tenant:${tenantId}`, async () => {
        return { known: await this.#findTenant(tenantId), tenantId };
      });
    }
    return Promise.resolve({ known: true, tenantId: undefined });
  }

  /** One of the `{forms}` lists, shared under its route's name, its records read one at a time. */
  async #formList<T>(route: 'forms' | 'coreForms', kind: RecordKind<T>): Promise<T[]> {
    const answer = await this.#shared(this.#lists, route, async () => ({
      forms: this.#records.read((await this.#client.read(route, FormListEnvelope)).forms, kind),
    }));
    return (answer as { forms: T[] }).forms;
  }

  async #shared<T extends object>(
    cache: LRUCache<string, T, Load<T>>,
    key: string,
    load: Load<T>,
  ): Promise<T> {
    if (this.#ttlMs === 0) return load();
    return (await cache.fetch(key, { context: load })) as T;
  }

  /**
   * Pages through the organisation's clients (each page shared, as the lists are) until one has
   * `tenantId` (lower-cased). Stops at the last page and after `MAX_PAGES` pages, which counts as
   * not found (the user gets no Core form) and is logged.
   */
  async #findTenant(tenantId: string): Promise<boolean> {
    const found = await this.#walkClients(tenantId);
    if (found !== LIST_CHANGED) return found;
    // Pages kept from different moments, a client added or removed in between: the offsets
    // shifted, and a client in the list throughout could fall between two pages. Read it anew.
    this.#clientPages.clear();
    return (await this.#walkClients(tenantId)) === true;
  }

  /** The walk of `#findTenant`; LIST_CHANGED when a page's total is not the first page's. */
  async #walkClients(tenantId: string): Promise<boolean | typeof LIST_CHANGED> {
    let total: number | undefined;
    for (let pageIndex = 0; pageIndex < MAX_PAGES; pageIndex += 1) {
      const page = await this.#shared(this.#clientPages, String(pageIndex), () =>
        this.#clientPage(pageIndex * PAGE_SIZE),
      );
      total ??= page.total;
      if (page.total !== total) return LIST_CHANGED;
      if (page.tenantIds.includes(tenantId)) return true;
      if (page.last) return false;
    }
    this.#logger.warn(
      `the clients list still had more after ${MAX_PAGES} pages of ${PAGE_SIZE}; the user's tenant counts as not found`,
    );
    return false;
  }

  /** The clients list's page at `offset`: the last at `hasMore` false, an empty page or `total`. */
  async #clientPage(offset: number): Promise<ClientPage> {
    const page = await this.#client.read('clients', ClientPageEnvelope, {
      query: { limit: String(PAGE_SIZE), offset: String(offset) },
    });
    return {
      tenantIds: this.#records
        .read(page.clients, clients)
        .map((client) => client.microsoftTenantId.toLowerCase()),
      last: !page.hasMore || page.clients.length === 0 || offset + PAGE_SIZE >= page.total,
      total: page.total,
    };
  }
}

/**
 * The global `performance` as it is at each read, so a replaced clock (a test's) is seen too.
 * With `ttlResolution: 0`: lru-cache otherwise keeps a read of the clock for 1 ms of real time
 * (a timer), so an age moved in between was not seen, and a cached read outlived its TTL.
 */
const currentPerformance = { now: () => performance.now() };

function runLoad<T>(
  _key: string,
  _stale: T | undefined,
  { context }: { context: Load<T> },
): Promise<T> {
  return context();
}
