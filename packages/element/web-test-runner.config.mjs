import { esbuildPlugin } from '@web/dev-server-esbuild';
import { playwrightLauncher } from '@web/test-runner-playwright';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

export default {
  files: ['test/**/*.test.ts', '!test/**/*.node.test.ts'],
  nodeResolve: { exportConditions: ['source', 'browser', 'development'] },
  plugins: [esbuildPlugin({ ts: true, target: 'es2022', tsconfig: '../../tsconfig.base.json' })],
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
