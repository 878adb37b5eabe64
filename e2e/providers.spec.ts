import type { PersonaId } from '../demo/personas.js';
import { countMints, eventsOf, expect, recordEvents, signIn, test } from './demo-fixture.js';

const cases: { provider: string; persona: PersonaId; form: string; signedIn: RegExp }[] = [
  { provider: 'microsoft', persona: 'adele', form: 'form:form_microsoft', signedIn: /adele@/ },
  { provider: 'google', persona: 'alex', form: 'form:form_google', signedIn: /alex@/ },
  { provider: 'portal', persona: 'adele', form: 'form:form_open', signedIn: /adele@/ },
  {
    provider: 'none',
    persona: 'anonymous',
    form: 'form:form_open',
    signedIn: /anonymous|not signed in/i,
  },
];

for (const { provider, persona, form, signedIn } of cases) {
  test(`FormSession: a ${provider} form session is framed and its form submits`, async ({
    page,
    demo,
  }) => {
    await recordEvents(page);
    await signIn(page, demo, persona);
    await page.goto(demo.url);
    await page.selectOption('#form', form);
    const element = page.locator('#embed-slot form-embed');
    await expect(element).toHaveAttribute('state', 'framed');

    const frame = page.frameLocator('#embed-slot form-embed iframe');
    await expect(frame.getByText(signedIn)).toBeVisible();
    await frame.getByLabel('Full name').fill('Sam Tester');
    await frame.getByRole('button', { name: 'Submit' }).click();
    await expect(frame.getByRole('heading', { name: 'Submitted' })).toBeVisible();

    const sessions = (await eventsOf(page)).filter((e) => e.type === 'form-embed-session');
    expect(sessions.at(-1)?.detail).toMatchObject({ provider, attempt: 1 });
    expect(sessions.at(-1)?.detail.expiresIn).toBe(provider === 'none' ? 0 : 120);
  });
}

test('budget: one browser request per mint', async ({ page, demo }) => {
  const mints = countMints(page);
  await page.goto(demo.url);
  await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
  expect(mints.count).toBe(1);
  await page.locator('[data-action=remint]').click();
  await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
  await expect.poll(() => mints.count).toBe(2);
});
