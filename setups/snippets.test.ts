// How setups/snippets.ts reads a README's code blocks, without packing or installing anything:
// a block a partner would copy as TypeScript or JavaScript is either checked by the setups lane's
// readme-snippets project or refused here, never left unchecked because of how its fence is
// written. Run by `npm run test:docs`.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, test } from 'node:test';
import { readmeSnippets, snippetsOf } from './snippets.js';

const readme = (...lines: string[]) => `# A README\n\n${lines.join('\n')}\n`;

describe('README code blocks', () => {
  test('```ts, ```tsx and ```js blocks are snippets, told at their first line of code', () => {
    const text = readme(
      '```ts',
      'const a = 1;',
      '```',
      '',
      '  ```tsx',
      '  <p />;',
      '  ```',
      '```js',
      'b;',
      '```',
    );
    const found = snippetsOf('README.md', text).map(({ line, lang, code }) => ({
      line,
      lang,
      code,
    }));
    assert.deepEqual(found, [
      { line: 4, lang: 'ts', code: 'const a = 1;\n' },
      { line: 8, lang: 'tsx', code: '<p />;\n' },
      { line: 11, lang: 'js', code: 'b;\n' },
    ]);
  });

  for (const opening of [
    '```typescript',
    '```javascript',
    '```jsx',
    '```mjs',
    '```cjs',
    '```mts',
    '```TS',
    '```ts title="server.ts"',
    '```js {2}',
    '~~~ts',
    '````ts',
  ]) {
    test(`a block opened ${opening} fails, naming its line and the tags that are checked`, () => {
      const text = readme(
        'Text.',
        opening,
        'const a: number = "not checked";',
        opening.replace(/[^`~].*/, ''),
      );
      assert.throws(
        () => snippetsOf('packages/x/README.md', text),
        (error: Error) => {
          assert.match(error.message, /^packages\/x\/README\.md:4: /);
          assert.ok(error.message.includes(opening.trim()), error.message);
          assert.match(error.message, /```ts, ```tsx or ```js/);
          return true;
        },
      );
    });
  }

  const pairings = {
    "a ts block after a fence with a title is still a snippet, not the other block's content": [
      ['```html title="page.html"', '<p></p>', '```', '', '```ts', 'const a = 1;', '```'],
      [8],
    ],
    'a ts block shown inside a longer fence (a README example of a README) is content': [
      ['````md', '```ts', 'const a = 1;', '```', '````', '```ts', 'const b = 2;', '```'],
      [9],
    ],
  } as const;
  for (const [name, [lines, snippetLines]] of Object.entries(pairings)) {
    test(name, () => {
      const found = snippetsOf('README.md', readme(...lines)).map(({ line }) => line);
      assert.deepEqual(found, snippetLines);
    });
  }

  test('a block after <!-- snippet setup: folder --> is left to that setup, which builds it', () => {
    const text = readme('<!-- snippet setup: angular21 -->', '```ts', 'const a = 1;', '```');
    const [found] = snippetsOf('README.md', text);
    assert.equal(found?.setup, 'angular21');
    assert.equal(found?.skipped, undefined);
  });

  test("the repository's READMEs have no block that would go unchecked", async () => {
    const snippets = await readmeSnippets();
    assert.ok(snippets.length > 0);
    // A block left to a setup is checked only if that setup exists.
    for (const { readme: file, line, setup } of snippets) {
      if (setup === undefined) continue;
      const folder = new URL(`${setup}/package.json`, import.meta.url);
      assert.ok(existsSync(folder), `${file}:${line}: no setup ${setup} builds this block`);
    }
  });
});
