import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

// Chromium from scripts/chromium.mjs: Debian's headless shell or chromium, CHROMIUM_PATH for another.
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
  // CI keeps only its log: the HTML report (every screenshot copied into it) is written locally.
  reporter: process.env.CI
    ? 'list'
    : [['list'], ['html', { outputFolder: '../playwright-report', open: 'never' }]],
  use: {
    browserName: 'chromium',
    viewport: { width: 1400, height: 900 },
    launchOptions: chromiumLaunchOptions,
    // Recording a trace for every test costs about a fifth of the suite's time; CI keeps nothing
    // but its log, so it records none. Locally a failed test keeps its trace.
    trace: process.env.CI ? 'off' : 'retain-on-failure',
  },
});
