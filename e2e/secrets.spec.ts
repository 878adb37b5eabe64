import type { Response } from '@playwright/test';
import { expect, openFramedConsole, submitOf, test } from './demo-fixture.js';

test('secrets rule (docs/contract.md#authentication): no response the browser receives, and nothing in the page, holds the API key', async ({
  page,
  demo,
}) => {
  const apiKey = demo.sandbox?.apiKey ?? '';
  expect(apiKey.length).toBeGreaterThan(10);
  const leaks: string[] = [];
  const handles = new Set<string>();
  // Each response is read in a check of its own, all awaited before the verdict: a body read
  // after the last assertion would otherwise go unchecked.
  const checks: Promise<void>[] = [];
  const check = async (response: Response) => {
    const headers = JSON.stringify(await response.allHeaders());
    const body = await response.text().catch(() => '');
    if (headers.includes(apiKey) || body.includes(apiKey)) leaks.push(response.url());
    // A handle reaches the browser only inside a mint answer's embedUrl.
    for (const [, handle] of body.matchAll(/handle=([\w-]+)/g)) {
      const mint = /\/form-sessions\/.+\/session$/.test(response.url());
      if (!mint || JSON.parse(body).embedUrl.split('handle=')[1] !== handle)
        leaks.push(response.url());
      if (handle) handles.add(handle);
    }
  };
  page.on('response', (response) => checks.push(check(response)));

  const element = await openFramedConsole(page, demo);
  await page.selectOption('#form', 'core:new-starter');
  const submit = submitOf(page);
  // Wait for the Core page itself, so that the sessions expired next include this one.
  await expect(page.locator('#embed-slot form-embed iframe')).toHaveAttribute(
    'src',
    /\/c\/new-starter\?handle=/,
  );
  await expect(submit).toBeVisible();
  demo.sandbox?.control.expireSessions();
  await submit.click();
  await expect(page.locator('#log li[data-kind=form-embed-remint]')).toHaveCount(1);
  await expect(element).toHaveAttribute('state', 'framed');
  await expect(submit).toBeVisible();

  await Promise.all(checks);
  expect(handles.size).toBeGreaterThanOrEqual(2);
  expect(leaks).toEqual([]);
  for (const frame of page.frames()) expect(await frame.content()).not.toContain(apiKey);
  expect(await page.evaluate(() => document.cookie + JSON.stringify(localStorage))).not.toContain(
    apiKey,
  );
});
