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

/**
 * The live setting Chromium's accessibility tree gives the status region whose text contains
 * `text`: what a screen reader is told, whether it comes from `role=status` or an attribute.
 */
export async function liveSettingOfStatus(page: Page, text: string): Promise<string | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as {
      nodes: Array<{
        nodeId: string;
        role?: { value?: string };
        childIds?: string[];
        properties?: Array<{ name: string; value: { value?: unknown } }>;
        name?: { value?: string };
      }>;
    };
    const byId = new Map(nodes.map((node) => [node.nodeId, node]));
    const textOf = (id: string): string => {
      const node = byId.get(id);
      return `${node?.role?.value === 'StaticText' ? (node.name?.value ?? '') : ''}${(node?.childIds ?? []).map(textOf).join('')}`;
    };
    const status = nodes.find(
      (node) => node.role?.value === 'status' && textOf(node.nodeId).includes(text),
    );
    const live = status?.properties?.find((property) => property.name === 'live');
    return live?.value.value as string | undefined;
  } finally {
    await cdp.detach();
  }
}
