import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

interface Named {
  name: string;
  default?: string;
  description?: string;
  static?: boolean;
  attribute?: string;
  fieldName?: string;
}

interface Manifest {
  modules: {
    path: string;
    declarations?: ({ tagName?: string } & Record<string, Named[]>)[];
    exports?: { kind: string; name: string; declaration: { name: string; module?: string } }[];
  }[];
}

type Cli = (options: { argv: string[]; cwd: string; noWrite: boolean }) => Promise<Manifest>;

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
  return { element, manifest };
}

let analysis: ReturnType<typeof analyzeOnce> | undefined;
/** The analysis takes seconds (it parses every source): the tests share one. */
const analyze = async () => {
  analysis ??= analyzeOnce();
  return (await analysis).element;
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

  // Tools that generate framework types from the manifest (Vue's, Svelte's, JSX's) read these.
  test('has both messages, ties the state attribute to its property, and defines form-embed once', async () => {
    const element = await analyze();
    const { manifest } = await (analysis as ReturnType<typeof analyzeOnce>);
    const messages = (element.members ?? []).filter((member) => member.name === 'messages');
    assert.deepEqual(messages.map((member) => Boolean(member.static)).sort(), [false, true]);
    const state = (element.attributes ?? []).find((attribute) => attribute.name === 'state');
    assert.equal(state?.fieldName, 'state');
    const member = (element.members ?? []).find((candidate) => candidate.name === 'state');
    assert.equal(member?.attribute, 'state');
    const definitions = manifest.modules.flatMap((module) =>
      (module.exports ?? [])
        .filter((entry) => entry.kind === 'custom-element-definition')
        .map((entry) => [
          module.path,
          entry.name,
          entry.declaration.name,
          entry.declaration.module,
        ]),
    );
    assert.deepEqual(definitions, [
      ['src/define.ts', 'form-embed', 'FormEmbedElement', 'src/form-embed-element.ts'],
    ]);
  });

  // Tools (IDEs, Storybook) list what the manifest declares as the element's API.
  test('declares only what an entry exports, and the classes <form-embed> inherits from', async () => {
    const { manifest } = await analyzeOnce();
    const declared = manifest.modules.flatMap((module) =>
      (module.declarations ?? []).map((item) => (item as { name?: string }).name),
    );
    for (const internal of ['make', 'fire', 'retryDelay', 'mintUrl', 'failureKey', 'misuses']) {
      assert.ok(!declared.includes(internal), `${internal} is internal`);
    }
    assert.ok(declared.includes('FormEmbedStatus'), 'the class chain stays');
    assert.ok(declared.includes('messages') && declared.includes('FormEmbed'));
  });
});
