import type { TestContext } from 'node:test';
import {
  defaultServicePaths,
  expandPath,
  FormSessionSchema,
  type FormSessionUser,
  type FormTarget,
  SessionErrorBodySchema,
} from '@form-embed/protocol';
import { type Sandbox, type SandboxOptions, startSandbox } from '../src/index.js';

/** Starts a sandbox for one test (or one `describe`) and closes it afterwards. */
export async function sandboxFor(t: Pick<TestContext, 'after'>, options?: SandboxOptions) {
  const sandbox = await startSandbox(options);
  t.after(() => sandbox.close());
  return sandbox;
}

export interface CallOptions {
  method?: string;
  /** `null` sends no Authorization header. Defaults to the sandbox's key. */
  apiKey?: string | null;
  body?: string | Uint8Array<ArrayBuffer>;
  headers?: Record<string, string>;
}

export function call(sandbox: Sandbox, path: string, options: CallOptions = {}) {
  const apiKey = options.apiKey === undefined ? sandbox.apiKey : options.apiKey;
  return fetch(`${sandbox.baseUrl}${path}`, {
    method: options.method ?? 'GET',
    headers: {
      ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    ...(options.body !== undefined ? { body: options.body } : {}),
    redirect: 'manual',
  });
}

export function sessionPath(target: FormTarget): string {
  return target.kind === 'form'
    ? expandPath(defaultServicePaths.formSession, { formId: target.formId })
    : expandPath(defaultServicePaths.coreFormSession, { slug: target.slug });
}

/** POSTs a FormSessionRequest; `body` replaces `{user}` with raw text. */
export function requestSession(
  sandbox: Sandbox,
  target: FormTarget,
  user?: FormSessionUser,
  options: { apiKey?: string | null; body?: string } = {},
) {
  return call(sandbox, sessionPath(target), {
    method: 'POST',
    apiKey: options.apiKey,
    body: options.body ?? JSON.stringify(user === undefined ? {} : { user }),
  });
}

/** Mints a session that must succeed; returns the parsed FormSession. */
export async function mintSession(sandbox: Sandbox, target: FormTarget, user?: FormSessionUser) {
  const response = await requestSession(sandbox, target, user);
  const body = await response.json();
  if (response.status !== 200) throw new Error(`mint failed: ${JSON.stringify(body)}`);
  return FormSessionSchema.parse(body);
}

/** Reads a SessionError answer, validated against the protocol's schema. */
export async function sessionError(response: Response) {
  return SessionErrorBodySchema.parse(await response.json()).error;
}

/** Follows the 303 of a redeemed embedUrl by hand; returns the session URL. */
export async function redeem(embedUrl: string): Promise<string> {
  const response = await fetch(embedUrl, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) throw new Error(`not redeemed: ${response.status}`);
  return new URL(location, embedUrl).href;
}

/** The state the page was told to post (`data-post` on body), if any. */
export function postedState(html: string): string | undefined {
  return /<body data-post="(\w+)"/.exec(html)?.[1];
}
