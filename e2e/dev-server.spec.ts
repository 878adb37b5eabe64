import { expect, submitOf, test } from './demo-fixture.js';

// The other specs load the pages the global setup built; `npm start` serves them through Vite's
// dev server from the packages' TypeScript sources. This spec keeps that path covered, in a
// worker of its own (its demo differs).
test.use({ demoOptions: { port: 0, mintsPerMinute: 1000 } });

test("npm start's demo: Vite's dev server serves the console from the element's sources, and it frames a form that submits", async ({
  page,
  demo,
}) => {
  const sources: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/packages/element/src/')) sources.push(request.url());
  });
  await page.goto(demo.url);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'framed');
  expect(sources.length).toBeGreaterThan(0);
  const frame = page.frameLocator('#embed-slot form-embed iframe');
  await frame.getByLabel('Full name').fill('Sam Tester');
  await submitOf(page).click();
  await expect(frame.getByRole('heading', { name: 'Submitted' })).toBeVisible();
});
