import { type Browser, type BrowserContextOptions, chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../scripts/chromium.mjs';

let launched: Promise<Browser> | undefined;

/** One Chromium for every browser setup, launched on first use. */
export function sharedBrowser(): Promise<Browser> {
  launched ??= chromium.launch(chromiumLaunchOptions);
  return launched;
}

export async function closeBrowser(): Promise<void> {
  if (launched) await (await launched).close();
}

/**
 * Opens `url` and waits until each `<output>` in `outputs` reports a session on `formsOrigin`
 * (written by the page's own session handler) and a form page from that origin is framed, with
 * the accessible name `frameTitles` gives it when given (in the page's order), in a page opened with
 * `pageOptions`.
 * Returns the page's errors, which a setup expects to be none, and its console warnings.
 */
export async function expectFramed(
  url: string,
  formsOrigin: string,
  outputs: string[],
  frameTitles?: string[],
  pageOptions: BrowserContextOptions = {},
) {
  const page = await (await sharedBrowser()).newPage(pageOptions);
  const errors: string[] = [];
  const warnings: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
    if (message.type() === 'warning') warnings.push(message.text());
  });
  try {
    await page.goto(url);
    for (const output of outputs) {
      await page
        .locator(output)
        .filter({ hasText: `session on ${formsOrigin}` })
        .waitFor({ timeout: 20_000 })
        .catch((error: Error) => {
          throw new Error(`${output} never reported a session: ${errors.join('; ') || error}`);
        });
    }
    const frames = page.locator('form-embed iframe');
    const count = await frames.count();
    if (count !== outputs.length) throw new Error(`${count} frames, not ${outputs.length}`);
    for (let index = 0; index < count; index += 1) {
      const src = (await frames.nth(index).getAttribute('src')) ?? '';
      if (!src.startsWith(`${formsOrigin}/`)) throw new Error(`a frame shows ${src}`);
      const title = await frames.nth(index).getAttribute('title');
      if (frameTitles && title !== frameTitles[index]) {
        throw new Error(`frame ${index + 1} is titled "${title}", not "${frameTitles[index]}"`);
      }
      const submit = frames.nth(index).contentFrame().getByRole('button', { name: 'Submit' });
      await submit.waitFor({ timeout: 10_000 });
    }
    return { errors, warnings };
  } finally {
    await page.close();
  }
}
