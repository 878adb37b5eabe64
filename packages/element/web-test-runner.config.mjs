import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { build } from 'esbuild';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
/**
 * React 18, which `<FormEmbed>` supports beside the element's own React 19: installed by the root's
 * devDependency `@form-embed/test-react-18` (scripts/react-18), outside the workspaces, so that its
 * react-dom finds its own React as a peer.
 */
const react18 = fileURLToPath(new URL('../../scripts/react-18/', import.meta.url));

/** React, react-dom/client and react-dom/server as one module, so that they share one React. */
function reactModule(dir) {
  const names = Object.keys(createRequire(join(dir, 'index.js'))('react')).filter(
    (name) => name !== 'default',
  );
  return `import React from 'react'; import client from 'react-dom/client';
    import server from 'react-dom/server'; export default React;
    export const { ${names.join(', ')} } = React;
    export { client as __client, server as __server };`;
}

/**
 * The CommonJS packages the browser tests import, each served as an ES module bundled by esbuild
 * (from `dir`, the element's folder unless given). React is `/__react.js`, React 19; the
 * `react-18` group maps that path to `/__react-18.js` in an import map.
 */
const COMMONJS = {
  '@sinonjs/fake-timers': {
    path: '/__fake-timers.js',
    code: "import timers from '@sinonjs/fake-timers'; export const { install, withGlobal } = timers;",
  },
  react: { path: '/__react.js', code: reactModule(here) },
  'react@18': { path: '/__react-18.js', code: reactModule(react18), dir: react18 },
  'react-dom/client': {
    path: '/__react-dom-client.js',
    code: "import { __client } from '/__react.js'; export const { createRoot, hydrateRoot } = __client;",
  },
  'react-dom/server': {
    path: '/__react-dom-server.js',
    code: "import { __server } from '/__react.js'; export const { renderToString } = __server;",
  },
};

/** Each module bundled once a run: every page of a React test file asks for React again. */
const bundled = new Map();

const commonJsAsModules = {
  name: 'commonjs-as-modules',
  resolveImport({ source }) {
    return COMMONJS[source]?.path;
  },
  serve({ path }) {
    const served = Object.values(COMMONJS).find((module) => module.path === path);
    if (!served) return;
    if (!bundled.has(path)) bundled.set(path, bundle(served));
    return bundled.get(path);
  },
};

async function bundle(served) {
  const result = await build({
    stdin: { contents: served.code, resolveDir: served.dir ?? here },
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
}

/** The files that test `<FormEmbed>`: each runs on React 19, then again on React 18. */
const reactTests = /(^|\/)test\/react[^/]*\.test\.ts$/;

/** The files `--files` names (`--files a b`, `--files=a`), or undefined when it is not given. */
function filesArgument(argv = process.argv) {
  const at = argv.findIndex((arg) => arg === '--files' || arg.startsWith('--files='));
  if (at < 0) return undefined;
  if (argv[at].includes('=')) return [argv[at].slice('--files='.length)];
  const rest = argv.slice(at + 1);
  const end = rest.findIndex((arg) => arg.startsWith('-'));
  return end < 0 ? rest : rest.slice(0, end);
}

const react18Files = filesArgument()?.filter((file) => reactTests.test(file)) ?? [
  'test/react*.test.ts',
];

/**
 * The React test files again, on React 18: an import map, read before any module, sends
 * `/__react.js` (what `react`, `react-dom/client` and `react-dom/server` resolve to) to React 18.
 * A test checks which React it got (`globalThis.expectedReactMajor`). With `--files`, it runs those
 * of the named files that test `<FormEmbed>`.
 */
const react18Group = {
  name: 'react-18',
  files: react18Files,
  testRunnerHtml: (testFramework) =>
    `<!DOCTYPE html><html><script type="importmap">${JSON.stringify({
      imports: { '/__react.js': '/__react-18.js' },
    })}</script><script>globalThis.expectedReactMajor = 18;</script><body>` +
    `<script type="module" src="${testFramework}"></script></body></html>`,
};

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  groups: react18Files.length > 0 ? [react18Group] : [],
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
