// How every test and benchmark here launches Chromium. No tool may download its own browser on
// these machines: Debian's /usr/bin/chromium by default, CHROMIUM_PATH to use another one.
// The flags keep a headless Chromium off the network it would otherwise try to reach.
export const chromiumLaunchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};
