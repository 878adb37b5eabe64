import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { fixtureIds, type Sandbox, startSandbox } from '@form-embed/sandbox';
import { expect, submitOf, test } from './demo-fixture.js';

// `npm start` as the README points it at a real service: `demo/start.ts` in a process of its
// own, its environment set. A sandbox started here plays the service, as any service speaking
// the contract would; the demo does not know it is one.
const root = fileURLToPath(new URL('..', import.meta.url));

interface Started {
  url: Promise<string>;
  output: () => string;
  exit: Promise<number | null>;
  stop: () => void;
}

/** Runs `npm start`'s script with `env` added; `url` resolves once it prints where it listens. */
function npmStart(env: Record<string, string>): Started {
  const child = spawn(
    process.execPath,
    ['--conditions=@form-embed/source', '--import', 'tsx', 'demo/start.ts'],
    {
      cwd: root,
      env: { ...process.env, PORT: '0', ...env },
    },
  );
  let output = '';
  const url = new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const found = /form-embed demo\s+(http:\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${output}`)));
  });
  url.catch(() => {});
  const exit = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { url, output: () => output, exit, stop: () => child.kill('SIGINT') };
}

test.describe('npm start against a real service (FORM_EMBED_BASE_URL, FORM_EMBED_API_KEY)', () => {
  let service: Sandbox;
  test.beforeAll(async () => {
    service = await startSandbox();
  });
  test.afterAll(async () => {
    await service.close();
  });

  test('mints for FORM_EMBED_USER on that service, hides the sandbox-only controls, never prints the key, and Ctrl-C stops it with the page still open', async ({
    page,
  }) => {
    // A second demo process with Vite's dev server: slower to start than the suite's demos.
    test.slow();
    const user = {
      microsoftTenantId: fixtureIds.tenants.contoso,
      userIdentifier: fixtureIds.users.adele,
    };
    const demo = npmStart({
      FORM_EMBED_BASE_URL: service.baseUrl,
      FORM_EMBED_API_KEY: service.apiKey,
      FORM_EMBED_USER: JSON.stringify(user),
    });
    try {
      await page.goto(await demo.url);
      await expect(page.locator('#mode')).toHaveText('Real service');
      // Only what drives the sandbox is hidden: Burn and Remint act on the element and the
      // frame, which a real service has too, and the console says why the rest is gone.
      for (const hidden of [
        'Expire the session now',
        'Arm',
        'Arm: the framed page fails to open its handle',
        'Set',
        'Advance',
        'Use up the organisation’s mints',
        'Reset the sandbox',
      ]) {
        await expect(page.getByRole('button', { name: hidden, exact: true })).toBeHidden();
      }
      await expect(page.getByLabel('Upstream latency (ms)')).toBeHidden();
      await expect(page.locator('#controls')).toContainText('a real service has none of them');
      await expect(page.locator('#signed-in')).toBeHidden();
      // Who every mint is for, as FORM_EMBED_USER says: a tester otherwise learns it from refusals.
      await expect(page.locator('#service-user')).toContainText(fixtureIds.users.adele);
      await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
      await expect(submitOf(page)).toBeVisible();
      const mints = () => service.control.stats()['POST /api/v1/forms/{formId}/session'];
      await page.getByRole('button', { name: 'Remint now' }).click();
      await expect(page.locator('#control-result')).toHaveText('Done: remint');
      await expect.poll(mints).toBe(2);
      // The remint's frame is made when its answer comes, a moment after the service counted it,
      // and its handle is spent once its form shows. A reload before that cancels the first load,
      // whose handle the reload then redeems first: no error, no remint.
      await expect(page.locator('#embed-slot form-embed')).toHaveAttribute('state', 'framed');
      await expect(submitOf(page)).toBeVisible();
      // The reloaded frame redeems the spent handle again: its page says error, the element remints.
      await page.getByRole('button', { name: 'Burn the handle (reload the frame)' }).click();
      await expect(page.locator('#control-result')).toHaveText('Done: burn (the frame reloaded)');
      await expect.poll(mints).toBe(3);
      await expect(submitOf(page)).toBeVisible();
      // The catalogue and the mints came from that service, as FORM_EMBED_USER.
      expect(service.control.stats()).toMatchObject({ 'POST /api/v1/forms/{formId}/session': 3 });
      expect(demo.output()).toContain(`Real service     ${service.baseUrl}`);
    } finally {
      // Ctrl-C while the tab is open, its Vite websocket with it.
      demo.stop();
    }
    expect(await demo.exit).toBe(0);
    expect(demo.output()).not.toContain(service.apiKey);
  });

  test('a refused API key or an unreachable base URL: the console names the SessionError of the catalogue, and the key appears in neither the page nor the output', async ({
    page,
  }) => {
    test.slow();
    const apiKey = 'fe_test_notTheOrganisationsKey1';
    const refused = npmStart({ FORM_EMBED_BASE_URL: service.baseUrl, FORM_EMBED_API_KEY: apiKey });
    // A port nothing listens on: the service's own, closed.
    const closed = await startSandbox();
    const closedUrl = closed.baseUrl;
    await closed.close();
    const unreachable = npmStart({ FORM_EMBED_BASE_URL: closedUrl, FORM_EMBED_API_KEY: apiKey });
    // Each body is read in a promise of its own, all awaited before the verdict (as secrets.spec
    // does): a body read after the last assertion would otherwise go unchecked.
    const bodies: Promise<string>[] = [];
    page.on('response', (response) => bodies.push(response.text().catch(() => '')));
    try {
      for (const [demo, code, status, message] of [
        [refused, 'invalid_api_key', 401, 'The service refused the API key.'],
        [unreachable, 'unavailable', 503, 'The service could not be reached.'],
      ] as const) {
        await page.goto(await demo.url);
        const said = `${code}: ${message} The terminal running npm start says why.`;
        await expect(page.locator('#form option')).toHaveText(`Catalogue unavailable (${status})`);
        await expect(page.locator('#catalogue-error')).toHaveText(said);
        await expect(page.getByLabel('From the catalogue')).toHaveAccessibleDescription(said);
        expect(await page.content()).not.toContain(apiKey);
      }
    } finally {
      refused.stop();
      unreachable.stop();
    }
    await Promise.all([refused.exit, unreachable.exit]);
    expect(refused.output()).toContain('the service refused the API key');
    expect(unreachable.output()).toContain('could not be reached');
    for (const text of [...(await Promise.all(bodies)), refused.output(), unreachable.output()]) {
      expect(text).not.toContain(apiKey);
    }
  });
});

test('npm start refuses a half-set or malformed environment with one line, exit code 2', async () => {
  const cases = [
    [
      { FORM_EMBED_BASE_URL: 'https://api.example.com' },
      'Set both FORM_EMBED_BASE_URL and FORM_EMBED_API_KEY',
    ],
    [
      {
        FORM_EMBED_BASE_URL: 'https://api.example.com',
        FORM_EMBED_API_KEY: 'k',
        FORM_EMBED_USER: '{"tenant":"x"}',
      },
      'FORM_EMBED_USER must be a JSON object',
    ],
    [{ PORT: '70000' }, 'PORT must be a port number'],
  ] as const;
  await Promise.all(
    cases.map(async ([env, message]) => {
      const started = npmStart(env);
      expect(await started.exit, started.output()).toBe(2);
      expect(started.output()).toContain(message);
      expect(started.output()).not.toMatch(/\n\s+at /);
    }),
  );
});
