import { expect, test } from './demo-fixture.js';

const pages = ['/', '/several.html', '/lazy.html', '/hostile.html'];

test.use({ viewport: { width: 390, height: 844 } });

for (const path of pages) {
  test(`at 390 px the nav of ${path} wraps between its links: each on one line, none overlapping, all on screen`, async ({
    page,
    demo,
  }) => {
    await page.goto(`${demo.url}${path}`);
    const links = page.getByRole('navigation', { name: 'Demo pages' }).getByRole('link');
    await expect(links).toHaveCount(pages.length);
    const boxes = await links.evaluateAll((anchors) =>
      anchors.map((anchor) => {
        const { left, right, top, bottom } = anchor.getBoundingClientRect();
        const lineHeight = Number.parseFloat(getComputedStyle(anchor).lineHeight);
        return { name: anchor.textContent, left, right, top, bottom, lineHeight };
      }),
    );
    for (const box of boxes) {
      // One line of text: a name broken over two lines ("Several / embeds") reads as two links.
      expect(box.bottom - box.top, `${box.name} on one line`).toBeLessThan(box.lineHeight * 1.5);
      expect(box.left, `${box.name} on screen`).toBeGreaterThanOrEqual(0);
      expect(box.right, `${box.name} on screen`).toBeLessThanOrEqual(390);
    }
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.right <= b.left || b.right <= a.left || a.bottom <= b.top || b.bottom <= a.top;
        expect(apart, `${a.name} and ${b.name} do not overlap`).toBe(true);
      }
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      390,
    );
  });
}
