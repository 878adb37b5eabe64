import type { Page } from '@playwright/test';
import { demoPages } from '../demo/pages.js';
import type { Demo } from '../demo/server.js';
import { expect, test } from './demo-fixture.js';

/** Every Content-Security-Policy violation a document reports, from before its first script. */
async function recordViolations(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(
        `${event.effectiveDirective} ${event.blockedURI} at ${event.sourceFile}:${event.lineNumber}`,
      ),
    );
  });
}

const violationsOf = (page: Pick<Page, 'evaluate'>) =>
  page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);

/** The policy's `frame-src` sources. */
function frameSources(policy: string | undefined): string[] {
  const directive = policy?.split(';').find((d) => d.trim().startsWith('frame-src '));
  return directive?.trim().split(/\s+/).slice(1) ?? [];
}

const embedOrigins = (demo: Demo) => [demo.sandbox?.formsOrigin, demo.sandbox?.coreFormsOrigin];

const pages = demoPages.map(([path]) => path);

for (const path of pages) {
  test(`${path} under the demo's strict policy: framed, a failed mint and a remint, with no violation`, async ({
    page,
    demo,
  }) => {
    await recordViolations(page);
    // A source the browser cannot read is dropped with a console error, never a violation.
    const unread: string[] = [];
    page.on('console', (message) => {
      if (message.text().includes('Content-Security-Policy')) unread.push(message.text());
    });
    const response = await page.goto(`${demo.url}${path}`);
    const policy = response?.headers()['content-security-policy'];
    expect(policy).toContain("require-trusted-types-for 'script'");
    expect(policy).toContain("style-src 'self';");
    const hostile = `http://hostile.localhost:${new URL(demo.url).port}`;
    expect(frameSources(policy)).toEqual(
      path === '/hostile.html' ? [...embedOrigins(demo), hostile] : embedOrigins(demo),
    );

    const elements = page.locator('form-embed');
    await expect(elements).not.toHaveCount(0);
    for (const element of await elements.all()) {
      await element.scrollIntoViewIfNeeded(); // the lazy page's embed mints once in view
      await expect(element).toHaveAttribute('state', 'framed');
      // The element's styles are its adopted stylesheet, which the policy lets through.
      await expect(element.locator('[part=status]')).toHaveCSS('display', 'flex');
    }

    const first = elements.first();
    demo.sandbox?.control.fail({ kind: 'error', scope: 'session', code: 'form_not_found' });
    await first.evaluate((element: HTMLElement & { remint(): void }) => element.remint());
    await expect(first).toHaveAttribute('state', 'failed');
    await expect(first.locator('[part=status]')).not.toBeEmpty();
    await first.evaluate((element: HTMLElement & { remint(): void }) => element.remint());
    await expect(first).toHaveAttribute('state', 'framed');

    expect(await violationsOf(page)).toEqual([]);
    expect(unread).toEqual([]);
    if (path === '/hostile.html') {
      const frame = page.frameLocator('#hostile-frame');
      await expect(frame.getByRole('button', { name: /exact message/ })).toHaveCSS(
        'display',
        'block',
      );
      const attacker = page.frames().find((f) => f.url().startsWith(`${hostile}/`));
      expect(attacker && (await violationsOf(attacker))).toEqual([]);
    }
  });
}

test("a new forms domain is in the next page's policy, and the form frames from it with no violation", async ({
  page,
  demo,
}) => {
  const origins = await demo.sandbox?.control.changeFormsDomain();
  await recordViolations(page);
  const response = await page.goto(demo.url);
  const policy = response?.headers()['content-security-policy'];
  expect(frameSources(policy)).toEqual([origins?.formsOrigin, origins?.coreFormsOrigin]);
  const element = page.locator('#embed-slot form-embed');
  await expect(element).toHaveAttribute('state', 'framed');
  expect(await element.locator('iframe').getAttribute('src')).toMatch(
    new RegExp(`^${origins?.formsOrigin}/`),
  );
  expect(await violationsOf(page)).toEqual([]);
});

test('every answer carries the policy, however its path is spelled, and the attacker frame allows the loopback names the demo answers to', async ({
  request,
  demo,
}) => {
  const { port } = new URL(demo.url);
  const index = await (await request.get(demo.url)).text();
  const script = /<script[^>]* src="([^"]+)"/.exec(index)?.[1];
  expect(script).toBeTruthy();
  for (const path of ['/several%2ehtml', '/index%2Ehtml', script]) {
    const answer = await request.get(`${demo.url}${path}`);
    expect(answer.ok(), path).toBe(true);
    expect(answer.headers()['content-security-policy'], path).toContain("script-src 'self'");
  }
  const frame = await request.get(`${demo.url}/hostile-frame.html`);
  const ancestors = frame
    .headers()
    ['content-security-policy']?.split(';')
    .find((directive) => directive.trim().startsWith('frame-ancestors'));
  expect(ancestors?.trim().split(/\s+/).slice(1)).toEqual([
    `http://localhost:${port}`,
    `http://127.0.0.1:${port}`,
  ]);
});
