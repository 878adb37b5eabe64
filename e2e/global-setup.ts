import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

/**
 * Builds the demo's pages once for every worker (see `DemoOptions.pages`): a page then loads a few
 * files instead of Vite's dev server transforming and serving each module to each new context.
 * Development mode, as `npm start` serves them: the element's and Lit's warnings are in.
 */
export default async function buildDemoPages() {
  const pages = await mkdtemp(join(tmpdir(), 'form-embed-demo-pages-'));
  const nodeEnv = process.env.NODE_ENV;
  // Vite builds for development only under this NODE_ENV (its mode alone leaves it production).
  process.env.NODE_ENV = 'development';
  await build({
    configFile: new URL('../vite.config.ts', import.meta.url).pathname,
    mode: 'development',
    build: { outDir: pages, emptyOutDir: true },
    logLevel: 'warn',
  });
  // The workers inherit this process's environment: give it back as it was.
  if (nodeEnv === undefined) delete process.env.NODE_ENV;
  else process.env.NODE_ENV = nodeEnv;
  process.env.FORM_EMBED_DEMO_PAGES = pages;
  return () => rm(pages, { recursive: true, force: true });
}
