// Our Markdown's prose is wrapped at 100 columns, as the code is (biome.json's lineWidth), so
// that it reads in a terminal or a side-by-side diff. A line may run past them only where it
// cannot break: one long word (a URL), a heading, a table row or an HTML line.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { prose } from './markdown-prose.mjs';

const WIDTH = 100;
const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * Whether a line over WIDTH could break within it: at a space after its first word, before
 * which it fits, where the rest would not open a block of its own (a list item, a quote, a
 * heading, a table row or HTML).
 */
function breakable(line) {
  if (/^\s*(?:#|\||<)/.test(line)) return false;
  const indent = /^\s*/.exec(line)[0].length;
  for (
    let at = line.indexOf(' ', indent);
    at !== -1 && at <= WIDTH;
    at = line.indexOf(' ', at + 1)
  ) {
    const rest = line.slice(at + 1);
    if (at > indent && !/^(?:[-+*>#|<]|\d+[.)])/.test(rest)) return true;
  }
  return false;
}

/** `file:line (columns)` of each line of `text` that runs past WIDTH and could break. */
function overlong(file, text) {
  return prose(text)
    .split('\n')
    .flatMap((line, i) =>
      [...line].length > WIDTH && breakable(line) ? [`${file}:${i + 1} (${[...line].length})`] : [],
    );
}

test(`no line of our Markdown's prose runs past ${WIDTH} columns where it could break`, () => {
  const files = execFileSync('git', ['ls-files', '-z', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    // Changesets writes the changelogs, each entry a summary as its author wrapped it, indented.
    .filter((file) => file && !file.endsWith('CHANGELOG.md'));
  assert.ok(files.length >= 10, `only ${files.length} Markdown files found`);
  assert.deepEqual(
    files.flatMap((file) => overlong(file, readFileSync(join(root, file), 'utf8'))),
    [],
  );
});

test('what counts as a line that could break', () => {
  const long = 'word '.repeat(25).trim();
  const url = `[README](https://github.com/${'x'.repeat(100)})`;
  const text = [
    long,
    `  - ${long}`,
    `# ${long}`,
    `| ${long} |`,
    `<!-- ${long} -->`,
    url,
    `${'y'.repeat(99)} - ${long}`,
    `${'y'.repeat(95)} <b>${long}</b>`,
    '```',
    long,
    '```',
    `${'ü'.repeat(97)} z`,
  ].join('\n');
  assert.deepEqual(overlong('x.md', text), ['x.md:1 (124)', 'x.md:2 (128)']);
});
