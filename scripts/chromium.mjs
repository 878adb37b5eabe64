// How every test and benchmark here launches Chromium. No tool may download its own browser on
// these machines: Debian's packages, or CHROMIUM_PATH to use another build.
import { existsSync } from 'node:fs';

/**
 * Tests run on Debian's chromium-headless-shell when it is installed (the build Playwright itself
 * runs headless tests on: a third less CPU than the full browser for the same suites here), else
 * on its full chromium.
 */
const testBrowser = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) =>
  existsSync(path),
);

// The headless shell, unlike Chrome, does not put a cross-site frame in a process of its own
// unless told to: --site-per-process keeps the embed's frame out of process, as in Chrome.
// The other flags keep a headless Chromium off the network it would otherwise try to reach.
const args = [
  '--no-sandbox',
  '--site-per-process',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? testBrowser ?? '/usr/bin/chromium',
  args,
};

/** The bench times the full browser, as a portal's users run it. */
export const fullChromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args,
};
