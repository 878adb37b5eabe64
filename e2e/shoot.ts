import { mkdirSync } from 'node:fs';
import type { Locator, Page, TestInfo } from '@playwright/test';

/**
 * Attaches a screenshot of `what` (a page, or the console's stage: state bar and element) to the
 * report, for a person to look at; with FORM_EMBED_SHOTS set, also writes it into that folder.
 * Under CI, which keeps only the log (playwright.config.ts), it takes none unless
 * FORM_EMBED_SHOTS asks: there a photograph is for no one, and the suite's cost about a twentieth
 * of its CPU. The states they show are asserted either way.
 */
export async function shoot(what: Page | Locator, testInfo: TestInfo, name: string) {
  const folder = process.env.FORM_EMBED_SHOTS;
  if (process.env.CI && !folder) return;
  const path = testInfo.outputPath(`${name}.png`);
  await what.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
  if (folder) {
    mkdirSync(folder, { recursive: true });
    await what.screenshot({ path: `${folder}/${name}.png` });
  }
}
