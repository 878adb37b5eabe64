import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

// Chromium from scripts/chromium.mjs: Debian's by default, CHROMIUM_PATH for another.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: '../test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 8_000 },
  reporter: [['list'], ['html', { outputFolder: '../playwright-report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    launchOptions: chromiumLaunchOptions,
    trace: 'retain-on-failure',
  },
});
