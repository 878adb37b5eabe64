import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe on the console's `<form-embed>` (its shadow root included) and expects no violation.
 * The framed form is the service's page, not ours: axe leaves the iframe's document out.
 */
export async function expectNoAxeViolations(page: Page, selector = '#embed-slot form-embed') {
  const { violations } = await new AxeBuilder({ page })
    .include(selector)
    .exclude([[selector, 'iframe']])
    .analyze();
  expect(
    violations.map(({ id, nodes }) => `${id}: ${nodes.map((n) => n.html).join(' | ')}`),
  ).toEqual([]);
}
