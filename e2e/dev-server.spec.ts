import { startDemo } from '../demo/server.js';
import { expect, submitOf, test } from './demo-fixture.js';

// The other specs load the pages the global setup built; `npm start` serves them through Vite's
// dev server from the packages' TypeScript sources. This test keeps that path covered with a demo
// of its own, started here rather than as a worker's (which would cost a worker and a browser).
test("npm start's demo: Vite's dev server serves the console from the element's sources, and it frames a form that submits", async ({
  page,
}) => {
  const demo = await startDemo({ port: 0 });
  try {
    // The policy holds under the dev server too: its client script and its websocket are 'self'.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      document.addEventListener('securitypolicyviolation', (event) =>
        seen.push(`${event.effectiveDirective} ${event.blockedURI}`),
      );
    });
    const sources: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/packages/element/src/')) sources.push(request.url());
    });
    await page.goto(demo.url);
    await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
    expect(sources.length).toBeGreaterThan(0);
    const frame = page.frameLocator('#embed-slot form-embed iframe');
    await frame.getByLabel('Full name').fill('Sam Tester');
    await submitOf(page).click();
    await expect(frame.getByRole('heading', { name: 'Submitted' })).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
  } finally {
    await page.close();
    await demo.close();
  }
});
