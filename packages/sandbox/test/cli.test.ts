import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defaultServicePaths, OrganisationSchema } from '@form-embed/protocol';
import { fixtureKeys } from '../src/index.js';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

function startCli(args: string[]) {
  const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', cli, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, nextLine: async () => (await lines.next()).value as string };
}

test('form-embed-sandbox --json prints exactly one JSON line, serves, and exits cleanly on SIGTERM', async () => {
  const { child, nextLine } = startCli(['--json', '--control']);
  try {
    const line = await nextLine();
    const printed = JSON.parse(line) as Record<string, string>;
    assert.deepEqual(Object.keys(printed), ['baseUrl', 'formsOrigin', 'coreFormsOrigin', 'apiKey']);
    assert.equal(printed.apiKey, fixtureKeys.primary);
    const me = await fetch(`${printed.baseUrl}${defaultServicePaths.me}`, {
      headers: { authorization: `Bearer ${printed.apiKey}` },
    });
    const org = OrganisationSchema.parse(await me.json());
    assert.equal(org.formsOrigin, printed.formsOrigin);
    const control = await fetch(`${printed.baseUrl}/__sandbox/control/stats`, { method: 'POST' });
    assert.equal(control.status, 200, '--control enables the control API');
  } finally {
    child.kill('SIGTERM');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});

test('form-embed-sandbox without --json prints the addresses and key readably, and stops on SIGINT', async () => {
  const { child, nextLine } = startCli([]);
  try {
    const lines = [];
    for (let i = 0; i < 5; i++) lines.push(await nextLine());
    const text = lines.join('\n');
    assert.match(text, /API base URL: +http:\/\/127\.0\.0\.1:\d+/);
    assert.match(text, /Forms origin: +http:\/\/127\.0\.0\.1:\d+/);
    assert.match(text, /Core forms origin: +http:\/\/127\.0\.0\.1:\d+/);
    assert.ok(text.includes(fixtureKeys.primary));
  } finally {
    child.kill('SIGINT');
  }
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
});
