// How setups/snippets.ts reads a README's code blocks, without packing or installing anything:
// a block a partner would copy as TypeScript or JavaScript is either checked by the setups lane's
// readme-snippets project or refused here, never left unchecked because of how its fence is
// written. Run by `npm run test:docs`.
import assert from 'node:assert/strict';
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

  test("the repository's READMEs have no block that would go unchecked", async () => {
    assert.ok((await readmeSnippets()).length > 0);
  });
});
