import {
  type FormSession,
  FormSessionSchema,
  type FormTarget,
  KnownProviderSchema,
  type Provider,
  ProviderSchema,
} from '@form-embed/protocol';
import { z } from 'zod';
import { badShape } from './bad-shape.js';
import { logOnce } from './log-once.js';
import { shownValue } from './logger.js';
import type { ResolvedUser, UpstreamPaths } from './options.js';
import { UpstreamErrors } from './upstream-errors.js';
import { UpstreamOutages } from './upstream-outages.js';
import { requestUpstream, type UpstreamAnswer, type UpstreamConfig } from './upstream-request.js';

const isSuccess = (status: number) => status >= 200 && status < 300;

// The contract's FormSession, its embedUrl read as a string here and checked as an absolute
// http(s) URL by `embedUrlOriginOf`, whose origin the mint needs anyway: one URL parse, not two.
// Its provider is any written as the contract writes its values: the mint is spent by the time
// it is read, and nothing the middleware or the element decides reads it
// (docs/contract.md#form-sessions), so a provider this release does not know is passed on as it
// is rather than failed (and retried, each retry a mint).
const FormSessionAnswerSchema = FormSessionSchema.extend({
  embedUrl: z.string(),
  provider: ProviderSchema,
});

/**
 * The origin of an embedUrl that is an absolute http(s) URL naming no user name or password;
 * undefined otherwise. `https://user:pw@forms.example/` has the embed origin's origin but does
 * not begin with it: a browser blocks such a frame, or asks the person whether to sign in as
 * `user`.
 */
function embedUrlOriginOf(embedUrl: string): string | undefined {
  try {
    const { protocol, origin, username, password } = new URL(embedUrl);
    if (/^https?:$/.test(protocol) && username === '' && password === '') return origin;
  } catch {
    // Not an absolute URL.
  }
}

/** A FormSession as the service answered it, with the origin of its embedUrl. */
export type MintedSession = Omit<FormSession, 'provider'> & {
  provider: Provider;
  embedUrlOrigin: string;
};

/**
 * The service's API as the middleware uses it (docs/contract.md#authentication). Every failure
 * comes out as a SessionErrorResponse, and nothing of an answer is forwarded but what the
 * caller picks, so the organisation's `X-RateLimit-*` headers stay here.
 */
export class ServiceClient {
  readonly #config: UpstreamConfig;
  readonly #errors: UpstreamErrors;
  readonly #logOnce: (line: string) => void;

  constructor(config: Omit<UpstreamConfig, 'outages'>) {
    this.#config = { ...config, outages: new UpstreamOutages(config.logger) };
    this.#errors = new UpstreamErrors(config);
    this.#logOnce = logOnce(config.logger);
  }

  /**
   * One `POST` to the form-session endpoint of `target`, with `{user}` and nothing else; not
   * sent, or ended, once `cutOff` is aborted (rejecting with its reason).
   */
  async mint(
    target: FormTarget,
    user: ResolvedUser,
    cutOff?: AbortController,
  ): Promise<MintedSession> {
    const [route, params] =
      target.kind === 'form'
        ? (['formSession', { formId: target.formId }] as const)
        : (['coreFormSession', { slug: target.slug }] as const);
    const body = user === undefined ? {} : { user };
    const answer = await requestUpstream(this.#config, {
      method: 'POST',
      route,
      params,
      body,
      cutOff,
    });
    if (!isSuccess(answer.status)) throw this.#errors.refusal(route, answer);
    const session = FormSessionAnswerSchema.safeParse(answer.body);
    const embedUrlOrigin = session.success ? embedUrlOriginOf(session.data.embedUrl) : undefined;
    if (session.success && embedUrlOrigin !== undefined) {
      const { provider, embedUrl } = session.data;
      // Both go to the browser as they are (the key never may: SECURITY.md).
      if (this.#errors.holdsKey(embedUrl) || this.#errors.holdsKey(provider)) {
        throw this.#errors.echoedKey(route, answer);
      }
      if (!KnownProviderSchema.safeParse(provider).success) {
        this.#logOnce(
          `the service minted a session of provider ${shownValue(provider)}, which this release does not know: it is passed on as it is (form-embed-session's provider)`,
        );
      }
      return { ...session.data, embedUrlOrigin };
    }
    throw badShape(this.#config.logger, route, answer);
  }

  /** A `GET` whose answer must match `schema`. */
  async read<T>(route: keyof UpstreamPaths, schema: z.ZodType<T>, where: Where = {}): Promise<T> {
    return this.#parsed(route, schema, await this.#get(route, where));
  }

  /** A `GET` of one record; undefined on a 404, since "no such record" is an answer. */
  async find<T>(
    route: keyof UpstreamPaths,
    schema: z.ZodType<T>,
    where: Where,
  ): Promise<T | undefined> {
    const answer = await this.#get(route, where);
    return answer.status === 404 ? undefined : this.#parsed(route, schema, answer);
  }

  #get(route: keyof UpstreamPaths, { params, query }: Where) {
    return requestUpstream(this.#config, { method: 'GET', route, params, query });
  }

  #parsed<T>(route: keyof UpstreamPaths, schema: z.ZodType<T>, answer: UpstreamAnswer): T {
    if (!isSuccess(answer.status)) throw this.#errors.refusal(route, answer);
    const parsed = schema.safeParse(answer.body);
    if (parsed.success) return parsed.data;
    throw badShape(this.#config.logger, route, answer);
  }
}

/** The path's parameters and the query of a `GET`. */
interface Where {
  params?: Record<string, string>;
  query?: Record<string, string>;
}
