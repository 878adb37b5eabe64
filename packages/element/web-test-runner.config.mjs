import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { build } from 'esbuild';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const require = createRequire(import.meta.url);
const reactNames = Object.keys(require('react')).filter((name) => name !== 'default');

/**
 * The CommonJS packages the browser tests import, each served as an ES module bundled by esbuild.
 * React, react-dom/client and react-dom/server share one bundle, so that they share one React.
 */
const COMMONJS = {
  '@sinonjs/fake-timers': {
    path: '/__fake-timers.js',
    code: "import timers from '@sinonjs/fake-timers'; export const { install, withGlobal } = timers;",
  },
  react: {
    path: '/__react.js',
    code: `import React from 'react'; import client from 'react-dom/client';
      import server from 'react-dom/server'; export default React;
      export const { ${reactNames.join(', ')} } = React;
      export { client as __client, server as __server };`,
  },
  'react-dom/client': {
    path: '/__react-dom-client.js',
    code: "import { __client } from '/__react.js'; export const { createRoot, hydrateRoot } = __client;",
  },
  'react-dom/server': {
    path: '/__react-dom-server.js',
    code: "import { __server } from '/__react.js'; export const { renderToString } = __server;",
  },
};

const commonJsAsModules = {
  name: 'commonjs-as-modules',
  resolveImport({ source }) {
    return COMMONJS[source]?.path;
  },
  async serve({ path }) {
    const served = Object.values(COMMONJS).find((module) => module.path === path);
    if (!served) return;
    const result = await build({
      stdin: { contents: served.code, resolveDir: fileURLToPath(new URL('.', import.meta.url)) },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      define: { 'process.env.NODE_ENV': '"development"' },
      // `util`: required only where `process` exists, never in a browser; `/__react.js`: served.
      external: ['util', '/__react.js'],
      write: false,
      logLevel: 'silent',
    });
    return { body: result.outputFiles[0].text, type: 'js' };
  },
};

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  nodeResolve: { exportConditions: ['@form-embed/source', 'browser', 'development'] },
  plugins: [
    commonJsAsModules,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: '../../tsconfig.base.json' }),
  ],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions,
      // Opening a file's page (its load, not its imports) is bounded by browserStartTimeout below,
      // not by Playwright's own 30 s for a navigation.
      createPage: async ({ context }) => {
        const page = await context.newPage();
        page.setDefaultNavigationTimeout(120_000);
        return page;
      },
    }),
  ],
  // Two files at a time: most of a file's time is waiting (a frame's load, an animation frame),
  // and Playwright gives every page focus, so the focus tests do not contend. 42 s one at a time
  // here, 25 s two at a time (31 s beside two busy loops, three runs, all passing).
  concurrency: 2,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 120000,
  // Launching Chromium and opening a file's page (not its imports: testsStartTimeout bounds those)
  // takes a fraction of a second; WTR's default bound of 30 s was once passed by the first two
  // files on a loaded machine, which then ran all the others. A hang still ends, at 2 minutes.
  browserStartTimeout: 120_000,
};
