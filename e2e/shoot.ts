import { mkdirSync } from 'node:fs';
import type { Locator, TestInfo } from '@playwright/test';

/**
 * Attaches a screenshot of the console's stage (state bar and element) to the report, for a person
 * to look at; with FORM_EMBED_SHOTS set, also writes it into that folder.
 */
export async function shoot(stage: Locator, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await stage.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
  const folder = process.env.FORM_EMBED_SHOTS;
  if (folder) {
    mkdirSync(folder, { recursive: true });
    await stage.screenshot({ path: `${folder}/${name}.png` });
  }
}
