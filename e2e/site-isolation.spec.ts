import { expect, submitOf, test } from './demo-fixture.js';

// The tests run on the headless shell where it is installed (scripts/chromium.mjs), which isolates
// sites only when told to: this keeps them honest about running the embed as Chrome does.
test('the framed form is cross-site and out of process, as in Chrome', async ({
  browser,
  page,
  demo,
}) => {
  await page.goto(demo.url);
  await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
  await expect(submitOf(page)).toBeVisible();
  const embedUrl = await page.locator('#embed-slot form-embed iframe').getAttribute('src');
  const embedOrigin = new URL(embedUrl ?? '').origin;
  expect(new URL(demo.url).hostname).not.toBe(new URL(embedOrigin).hostname);

  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets');
  await cdp.detach();
  const frames = targetInfos.filter((target) => target.type === 'iframe');
  expect(frames.map((target) => new URL(target.url).origin)).toContain(embedOrigin);
});
