// The package's public surface as a partner's editor meets it: every type an option or the
// Router's signature is built from can be imported by name from `@form-embed/express`. The type
// checks are the root `tsc` (npm run typecheck); the test itself checks the one value.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type {
  Catalogue,
  CatalogueEntry,
  CatalogueOptions,
  EmbedOrigins,
  FormEmbedSessionsOptions,
  FormEmbedSessionsRouter,
  FormSessionUser,
  FormTarget,
  InMemoryLimits,
  LimitCounts,
  LimitOptions,
  Logger,
  ResolvedUser,
  SharedLimits,
  UpstreamPaths,
} from '@form-embed/express';
import * as api from '@form-embed/express';
import type { Sandbox } from '@form-embed/sandbox';
import { MemoryStore } from 'express-rate-limit';
import { exportedNames, namesInCode } from '../../../scripts/exported-names.mjs';

test('formEmbedSessions is the only value the package exports', () => {
  assert.deepEqual(Object.keys(api), ['formEmbedSessions']);
});

test('the parts of limit (LimitCounts, InMemoryLimits, SharedLimits) are importable by name', () => {
  const counts: LimitCounts = { mints: 5, windowMs: 30_000 };
  const inMemory: InMemoryLimits = { prefix: 'portal:' };
  const shared: SharedLimits = { store: new MemoryStore(), prefix: 'portal:' };
  // @ts-expect-error: a store without its prefix is refused by the types, as by the options.
  const unprefixed: SharedLimits = { store: new MemoryStore() };
  const limits: LimitOptions[] = [
    { ...counts, ...inMemory },
    { ...counts, ...shared },
  ];
  assert.equal(limits.length, 2);
  assert.ok(unprefixed);
});

test("authorize's target (FormTarget) is importable by name, as the element exports it", () => {
  const onlyCoreForms = (_req: unknown, target: FormTarget) => target.kind === 'coreForm';
  const options: Pick<FormEmbedSessionsOptions, 'authorize'> = { authorize: onlyCoreForms };
  assert.equal(typeof options.authorize, 'function');
});

test('the other exported types name what the README says they do', () => {
  const catalogue: CatalogueOptions = { signedOut: true };
  const paths: Partial<UpstreamPaths> = { me: '/api/v1/me' };
  const user: ResolvedUser = { clientId: 'client' };
  const logger: Logger = console;
  const origins: (router: FormEmbedSessionsRouter) => Promise<EmbedOrigins | undefined> = (
    router,
  ) => router.embedOrigins();
  // One name for one shape: the sandbox's embedOrigins() answers the same type.
  const sandboxOrigins: (sandbox: Sandbox) => EmbedOrigins = (sandbox) =>
    sandbox.control.embedOrigins();
  assert.ok(catalogue && paths && user && logger && origins);
  assert.equal(typeof sandboxOrigins, 'function');
});

test('what a partner writes as it comes is taken: a readonly allowedOrigins, a resolveUser that answers null, a user and a menu typed by name', () => {
  const origins = ['https://app.portal.example'] as const;
  const options: Pick<FormEmbedSessionsOptions, 'allowedOrigins' | 'resolveUser'> = {
    allowedOrigins: origins,
    resolveUser: (req) => (req.get('x-user') ? ({ clientId: 'client' } as FormSessionUser) : null),
  };
  const menu: Catalogue = { forms: [] };
  const first: CatalogueEntry | undefined = menu.forms[0];
  assert.equal(options.allowedOrigins?.length, 1);
  assert.equal(first, undefined);
});

test('the README names every export', () => {
  const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
  const named = namesInCode(read('../README.md'));
  const exported = exportedNames(read('../src/index.ts'));
  assert.ok(exported.includes('formEmbedSessions'));
  assert.deepEqual(
    exported.filter((name) => !named.has(name)),
    [],
  );
});
