import { fileURLToPath } from 'node:url';
import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { build } from 'esbuild';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const FAKE_TIMERS = '/__fake-timers.js';

/** @sinonjs/fake-timers is CommonJS: the browser gets it bundled into one ES module. */
const fakeTimersAsModule = {
  name: 'fake-timers-as-module',
  resolveImport({ source }) {
    if (source === '@sinonjs/fake-timers') return FAKE_TIMERS;
  },
  async serve({ path }) {
    if (path !== FAKE_TIMERS) return;
    const result = await build({
      stdin: {
        contents:
          "import timers from '@sinonjs/fake-timers'; export const { install, withGlobal } = timers;",
        resolveDir: fileURLToPath(new URL('.', import.meta.url)),
      },
      bundle: true,
      format: 'esm',
      platform: 'browser',
      // Required only where `process` exists, never in a browser.
      external: ['util'],
      write: false,
      logLevel: 'silent',
    });
    return { body: result.outputFiles[0].text, type: 'js' };
  },
};

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  nodeResolve: { exportConditions: ['source', 'browser', 'development'] },
  plugins: [
    fakeTimersAsModule,
    esbuildPlugin({ ts: true, target: 'es2022', tsconfig: '../../tsconfig.base.json' }),
  ],
  browsers: [
    playwrightLauncher({
      product: 'chromium',
      launchOptions: chromiumLaunchOptions,
    }),
  ],
  concurrency: 1,
  testFramework: { config: { timeout: 10000 } },
  testsFinishTimeout: 120000,
};
