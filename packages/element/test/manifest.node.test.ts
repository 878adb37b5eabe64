import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface Named {
  name: string;
  default?: string;
  description?: string;
}

type Cli = (options: { argv: string[]; cwd: string; noWrite: boolean }) => Promise<{
  modules: { declarations?: ({ tagName?: string } & Record<string, Named[]>)[] }[];
}>;

/** The same analysis as `npm run build` (with its config file), returned instead of written. */
async function analyzeOnce() {
  const specifier = '@custom-elements-manifest/analyzer/cli.js';
  const { cli } = (await import(specifier)) as { cli: Cli };
  const manifest = await cli({
    argv: ['analyze', '--litelement', '--globs', 'src/**/*.ts', '--quiet'],
    cwd: packageDir,
    noWrite: true,
  });
  const element = manifest.modules
    .flatMap((m) => m.declarations ?? [])
    .find((d) => d.tagName === 'form-embed');
  assert.ok(element, 'the manifest declares <form-embed>');
  return element;
}

let analysis: ReturnType<typeof analyzeOnce> | undefined;
/** The analysis takes seconds (it parses every source): the tests share one. */
const analyze = () => {
  analysis ??= analyzeOnce();
  return analysis;
};

const names = (list: Named[] = []) => list.map((item) => item.name).sort();

describe('custom-elements.json', () => {
  test('lists the attributes of <form-embed> with their defaults', async () => {
    const element = await analyze();
    assert.deepEqual(names(element.attributes), [
      'core-slug',
      'endpoint',
      'form-id',
      'frame-title',
      'loading',
      'state',
    ]);
    const defaults = Object.fromEntries((element.attributes ?? []).map((a) => [a.name, a.default]));
    assert.equal(defaults.endpoint, "'/form-sessions'");
    assert.equal(defaults.loading, "'eager'");
    assert.equal(defaults['frame-title'], undefined, 'the frame title comes from the messages');
  });

  test('lists the events, slots, parts and CSS property, and no private member', async () => {
    const element = await analyze();
    assert.deepEqual(names(element.events), [
      'form-embed-error',
      'form-embed-notice',
      'form-embed-remint',
      'form-embed-session',
    ]);
    assert.deepEqual(names(element.slots), ['error', 'loading', 'notice']);
    assert.deepEqual(names(element.cssParts), ['dismiss', 'frame', 'retry', 'status']);
    assert.deepEqual(names(element.cssProperties), [
      '--form-embed-height',
      '--form-embed-status-background',
      '--form-embed-status-color',
    ]);
    assert.ok(names(element.members).includes('remint'));
    assert.ok(!names(element.members).some((name) => name.startsWith('#')));
  });
});
