import type { Locator, Page } from '@playwright/test';
import { demoPages } from '../demo/pages.js';
import { expectNoAxeViolations } from './axe.js';
import { expect, openFramedConsole, signIn, test } from './demo-fixture.js';

const pages = demoPages.map(([path]) => path);

/**
 * Presses `target` with the keyboard where a click would have to pass the element's cross-site
 * frame. Chromium routes a click to an out-of-process frame by where the frames were last drawn:
 * after a scroll, a click can land in the form (seen on its textarea) and the button never get
 * it, even with the page scrolled first, under load. A key goes to the focused button.
 */
async function pressed(target: Locator): Promise<void> {
  await target.press('Enter');
}

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

for (const width of [1280, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: width > 1000 ? 800 : 844 } });

    test('the console shows every persona and catalogue choice, and the Embed box its example, in full', async ({
      page,
      demo,
    }) => {
      await page.goto(demo.url);
      await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
      for (const id of ['persona', 'form']) {
        // A select as wide as it needs to be, with only that option: any wider one is cut off.
        const cut = await page.locator(`#${id}`).evaluate((select: HTMLSelectElement) =>
          [...select.options].flatMap(({ text }) => {
            const probe = document.createElement('select');
            probe.style.width = 'auto';
            probe.add(new Option(text));
            select.after(probe);
            const needs = probe.getBoundingClientRect().width;
            probe.remove();
            return needs > select.getBoundingClientRect().width ? [text] : [];
          }),
        );
        expect(cut, `options of #${id} cut off`).toEqual([]);
      }
      const box = page.locator('#form-other');
      const cut = await box.evaluate((input: HTMLInputElement) => {
        const { font, paddingLeft, paddingRight } = getComputedStyle(input);
        const context = document.createElement('canvas').getContext('2d');
        if (!context) return 'no canvas';
        context.font = font;
        const room =
          input.clientWidth - Number.parseFloat(paddingLeft) - Number.parseFloat(paddingRight);
        return context.measureText(input.placeholder).width > room ? input.placeholder : '';
      });
      expect(cut, 'placeholder of the Embed box cut off').toBe('');
    });

    test('the lazy page tells on its first screen to scroll down', async ({ page, demo }) => {
      await page.goto(`${demo.url}/lazy.html`);
      const hint = page.locator('.tall-spacer');
      await expect(hint).toContainText('Scroll down');
      const bottom = await hint.evaluate((spacer) => {
        const range = document.createRange();
        range.selectNodeContents(spacer);
        return range.getBoundingClientRect().bottom;
      });
      expect(bottom).toBeLessThanOrEqual(page.viewportSize()?.height ?? 0);
    });

    test('the result of a sandbox control shows on the screen the control was used on', async ({
      page,
      demo,
    }) => {
      await page.goto(demo.url);
      // The controls answer clicks once the console has asked the sandbox what is armed.
      await expect(page.getByText('Armed failures: none.')).toBeVisible();
      await page.getByRole('button', { name: 'Expire the session now' }).click();
      const result = page.getByRole('status').filter({ hasText: 'Done: expire-sessions' });
      await expect(result).toBeInViewport();
    });

    test('a control reached with Tab is never under the result strip', async ({ page, demo }) => {
      await page.setViewportSize({ width, height: 720 });
      await page.goto(demo.url);
      await expect(page.getByText('Armed failures: none.')).toBeVisible();
      const expire = page.getByRole('button', { name: 'Expire the session now' });
      await expire.click();
      await expect(page.locator('#control-result')).toHaveText('Done: expire-sessions');
      await page.evaluate(() => window.scrollTo(0, 0));
      await expire.focus();
      const covered: string[] = [];
      for (let step = 0; step < 12; step++) {
        await page.keyboard.press('Tab');
        // What a click on the middle of the focused control would hit.
        const hidden = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement;
          const { left, top, width: w, height: h } = focused.getBoundingClientRect();
          const hit = document.elementFromPoint(left + w / 2, top + h / 2);
          return hit?.closest('#control-result') ? focused.textContent?.trim() || focused.id : '';
        });
        if (hidden) covered.push(hidden);
      }
      expect(covered).toEqual([]);
    });
  });
}

test('at 320 px the console, its form framed, reflows: no page wider than the screen, no sideways scroll (WCAG 1.4.10)', async ({
  page,
  demo,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await openFramedConsole(page, demo);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(320);
});

test.describe('at 360 px', () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test('the hostile page’s two frames of a reused embedUrl stay inside their card', async ({
    page,
    demo,
  }) => {
    await page.goto(`${demo.url}/hostile.html`);
    // Its frames loaded: the button below them has come to rest.
    await expect(page.locator('#target')).toHaveAttribute('state', 'framed');
    await expect(
      page.frameLocator('#hostile-frame').getByRole('button', { name: /exact message/ }),
    ).toBeVisible();
    await expect(
      page.frameLocator('#target iframe').getByRole('button', { name: 'Submit' }),
    ).toBeVisible();
    const button = page.getByRole('button', { name: 'Frame a reused embedUrl beside the element' });
    await pressed(button);
    const frames = page.locator('#stolen iframe');
    await expect(frames).toHaveCount(2);
    const overflow = await page.locator('#stolen').evaluate((stolen) => {
      const { right } = stolen.getBoundingClientRect();
      return [...stolen.querySelectorAll('iframe')].map(
        (frame) => frame.getBoundingClientRect().right - right,
      );
    });
    for (const past of overflow)
      expect(past, 'px past the right of #stolen').toBeLessThanOrEqual(0);
  });
});

test('signed out, the hostile page’s reused embedUrl frames nothing and says why: the open form then comes with no handle, so no page would post error', async ({
  page,
  demo,
}) => {
  await signIn(page, demo, 'anonymous');
  await page.goto(`${demo.url}/hostile.html`);
  await expect(page.locator('#target')).toHaveAttribute('state', 'framed');
  const button = page.getByRole('button', { name: 'Frame a reused embedUrl beside the element' });
  await pressed(button);
  await expect(page.locator('#sent')).toHaveText(
    'Nothing framed: signed out, this form comes with no handle to reuse. Sign in on the console first.',
  );
  await expect(page.locator('#stolen iframe')).toHaveCount(0);
});

test('each button of the hostile page’s frame on another origin says, in sight in the frame, what it posted', async ({
  page,
  demo,
}) => {
  await page.goto(`${demo.url}/hostile.html`);
  const hostile = page.frameLocator('#hostile-frame');
  const posted = hostile.getByRole('status');
  for (const name of [
    'The exact message, from the wrong origin',
    'With an extra field',
    'With a wrong type',
    'As a string, not an object',
  ]) {
    await hostile.getByRole('button', { name }).click();
    // A log that stays empty then reads as refused, not as never sent.
    await expect(posted).toContainText(`Posted to the portal page: ${name.toLowerCase()}.`);
    const inSight = await posted.evaluate((line) => {
      const { top, bottom } = line.getBoundingClientRect();
      return top >= 0 && bottom <= innerHeight;
    });
    expect(inSight, 'the line is inside the frame, not below its bottom').toBe(true);
  }
});

test('the lazy page shows its embed’s state beside the embed, in sight once scrolled to it', async ({
  page,
  demo,
}) => {
  await page.goto(`${demo.url}/lazy.html`);
  const card = page.getByRole('region', { name: 'Lazy embed' });
  await card.locator('form-embed').scrollIntoViewIfNeeded();
  await expect(page.locator('#lazy')).toHaveAttribute('state', 'framed');
  // The page note's badge at the top is out of sight by now: the card says it too.
  const badge = card.locator('.state');
  await expect(badge).toHaveText('framed');
  await expect(badge).toBeInViewport();
});

/** Whether a click on the middle of `selector` (the first match) would hit it, not what covers it. */
async function uncovered(page: Page, selector: string) {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => {
      const { left, top, width, height } = element.getBoundingClientRect();
      const hit = document.elementFromPoint(left + width / 2, top + height / 2);
      return hit !== null && (element === hit || element.contains(hit));
    });
}

test.describe('at 390 px, the console’s glance bar', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('shows the element’s state and last event beside the controls far above the form, and covers none of them', async ({
    page,
    demo,
  }) => {
    await page.goto(demo.url);
    await expect(page.getByText('Armed failures: none.')).toBeVisible();
    const glance = page.getByRole('region', { name: 'The element, at a glance' });
    await expect(glance.locator('.state')).toHaveText('framed');
    await expect(glance).toContainText('session · attempt 1');
    await expect(glance.getByRole('link', { name: 'Events (1)' })).toBeVisible();
    const remint = page.getByRole('button', { name: 'Remint now' });
    await pressed(remint);
    // remint() starts a new run: its session is attempt 1 again, the log's second event.
    await expect(glance.getByRole('link', { name: 'Events (2)' })).toBeVisible();
    await expect(glance).toContainText('session · attempt 1');
    await expect(glance).toBeInViewport();
    expect(await uncovered(page, '[data-action=remint]'), 'Remint now uncovered').toBe(true);
    // Not a live region: it repeats the stage to the eye; read out as well, each change would chatter.
    expect(
      await glance.evaluate((bar) =>
        [bar, ...bar.querySelectorAll('*')].some(
          (node) =>
            node.hasAttribute('aria-live') ||
            ['status', 'log', 'alert'].includes(node.getAttribute('role') ?? ''),
        ),
      ),
    ).toBe(false);
    await expectNoAxeViolations(page, '.glance');

    await glance.getByRole('link', { name: 'Form' }).click();
    await expect(page.locator('#state')).toBeInViewport();
    expect(await uncovered(page, '#state'), 'the stage’s state uncovered').toBe(true);
    await glance.getByRole('link', { name: /^Events/ }).click();
    await expect(page.getByRole('heading', { name: 'Events' })).toBeInViewport();
    // Clear empties the bar's last event with the log, where the bar kept its last session.
    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(glance.getByRole('link', { name: 'Events (0)' })).toBeVisible();
    await expect(glance).toContainText('No event yet.');
    await glance.getByRole('link', { name: 'Controls' }).click();
    expect(await uncovered(page, '#controls-heading'), 'the controls’ heading uncovered').toBe(
      true,
    );
  });

  // Found on a phone's emulation: the links' row, which could not wrap, widened the page to 555 px,
  // cutting off the lapse notice; wrapped, the bar took half the screen, over the notice.
  test('at 360 px with text at 200 %, the console is no wider than the screen, and the bar, taller than a quarter of it, scrolls away with the page', async ({
    page,
    demo,
  }) => {
    await page.setViewportSize({ width: 360, height: 780 });
    await page.goto(demo.url);
    await expect(page.getByText('Armed failures: none.')).toBeVisible();
    // CSSOM, which the page's policy allows where it refuses a style element.
    await page.evaluate(() => {
      document.documentElement.style.fontSize = '200%';
    });
    const glance = page.getByRole('region', { name: 'The element, at a glance' });
    await expect(glance).toHaveCSS('position', 'static');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.evaluate(() => {
      document.documentElement.style.fontSize = '';
    });
    await expect(glance).toHaveCSS('position', 'sticky');
  });

  test('covers no control reached with Shift+Tab, from the last control up', async ({
    page,
    demo,
  }) => {
    await page.goto(demo.url);
    await expect(page.getByText('Armed failures: none.')).toBeVisible();
    await page.getByRole('button', { name: 'Reset the sandbox' }).focus();
    const covered: string[] = [];
    for (let step = 0; step < 24; step++) {
      await page.keyboard.press('Shift+Tab');
      const hidden = await page.evaluate(() => {
        const focused = document.activeElement as HTMLElement;
        const { left, top, width: w, height: h } = focused.getBoundingClientRect();
        const hit = document.elementFromPoint(left + w / 2, top + h / 2);
        return hit?.closest('.glance') && !focused.closest('.glance')
          ? focused.textContent?.trim() || focused.id
          : '';
      });
      if (hidden) covered.push(hidden);
    }
    expect(covered).toEqual([]);
  });
});

test('at 1280 px the console has no glance bar: the form, its state and the events are in sight beside the controls, and stay so while the lower controls are used', async ({
  page,
  demo,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openFramedConsole(page, demo);
  await expect(page.locator('.glance')).toBeHidden();
  expect(await page.evaluate(() => document.documentElement.style.scrollPaddingTop)).toBe('');
  expect(
    await page.locator('.stage').evaluate((stage) => stage.getBoundingClientRect().top),
  ).toBeLessThan(100);
  // Remint now is below the fold of an 800 px screen: clicking it scrolls the page.
  await page.locator('[data-action=remint]').click();
  expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
  for (const selector of ['#state', '#events h2']) {
    const { top, bottom } = await page
      .locator(selector)
      .evaluate((node) => node.getBoundingClientRect().toJSON());
    expect(top, selector).toBeGreaterThanOrEqual(0);
    expect(bottom, selector).toBeLessThanOrEqual(800);
  }
});
