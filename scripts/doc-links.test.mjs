// Every link between the repository's own documents leads somewhere: the file exists and, when
// the link names a heading (`#anchor`), the heading does, as GitHub and npm slug it. Comments in
// the code point into docs/ the same way (`docs/contract.md#session-errors`), so those count too.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import GithubSlugger from 'github-slugger';
import { prose } from './markdown-prose.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
  .split('\0')
  .filter((file) => file && existsSync(join(root, file)));

/** Our own repository's address: links to it from a package's README (read on npm) are checked too. */
const OWN_REPOSITORY = /^https:\/\/github\.com\/form-embed\/form-embed\/(?:blob|tree)\/main\//;

/**
 * The targets Markdown writes: inline links and images (`](target "title")`, `<target>` for one
 * with spaces, a title in any of its three quotes), reference definitions (`[ref]: target`), and
 * HTML `href` and `src` attributes.
 */
const MARKDOWN_TARGETS = [
  /\]\(\s*(?:<([^>\n]*)>|([^\s)]+))(?:\s+(?:"[^"]*"|'[^']*'|\([^)]*\)))?\s*\)/g,
  /^ {0,3}\[[^\]]+\]:\s*(?:<([^>\n]*)>|(\S+))/gm,
  /<(?:a|img|source)\b[^>]*?\s(?:href|src)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi,
];

const anchorsByFile = new Map();
function anchorsOf(file) {
  if (!anchorsByFile.has(file)) {
    const slugger = new GithubSlugger();
    const headings = [
      ...prose(readFileSync(join(root, file), 'utf8')).matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm),
    ];
    anchorsByFile.set(
      file,
      new Set(headings.map(([, heading]) => slugger.slug(plainText(heading)))),
    );
  }
  return anchorsByFile.get(file);
}

/** A heading's text as GitHub slugs it: links keep their text, code spans and emphasis lose their marks. */
function plainText(heading) {
  return heading.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/[`*_]/g, '');
}

/** Each link a file makes to another of our documents (or to a heading of its own): [from, target]. */
function linksOf(file, text = readFileSync(join(root, file), 'utf8')) {
  const targets = file.endsWith('.md')
    ? MARKDOWN_TARGETS.flatMap((pattern) =>
        [...prose(text).matchAll(pattern)].map(([, quoted, bare]) => quoted ?? bare),
      )
    : [...text.matchAll(/\b(docs\/[\w-]+\.md#[\w-]+)/g)].map(([, target]) => `/${target}`);
  return targets.flatMap((target) => {
    const own = target.replace(OWN_REPOSITORY, '/');
    if (/^[a-z][\w+.-]*:/i.test(own)) return [];
    const [path, anchor] = own.split('#');
    const resolved = !path
      ? file
      : path.startsWith('/')
        ? normalize(path.slice(1))
        : normalize(join(dirname(file), decodeURIComponent(path)));
    return [{ target, file: resolved.replace(/\/$/, ''), anchor }];
  });
}

test('every link between our documents, and from the code into docs/, leads to a file and heading that exist', () => {
  const broken = [];
  let checked = 0;
  for (const from of tracked.filter((file) => /\.(md|ts|tsx|mjs|js)$/.test(file))) {
    for (const { target, file, anchor } of linksOf(from)) {
      checked++;
      if (!existsSync(join(root, file))) broken.push(`${from}: ${target} (no such file)`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor))
        broken.push(`${from}: ${target} (no such heading)`);
    }
  }
  assert.ok(checked > 100, `only ${checked} links found: the link pattern no longer matches`);
  assert.deepEqual(broken, []);
});

/**
 * A package's README is read on npmjs.com too, where a link relative to the repository leads
 * nowhere: it links to its own headings (`#anchor`) or by full address.
 */
function relativeLinksOf(readme, text = readFileSync(join(root, readme), 'utf8')) {
  return MARKDOWN_TARGETS.flatMap((pattern) =>
    [...prose(text).matchAll(pattern)].map(([, quoted, bare]) => quoted ?? bare),
  ).filter((target) => !/^(?:[a-z][\w+.-]*:|#)/i.test(target));
}

test("a package's README, read on npm, links to its own headings or by full address", () => {
  const readmes = tracked.filter((file) => /^packages\/[^/]+\/README\.md$/.test(file));
  assert.ok(readmes.length >= 4, `only ${readmes.length} package READMEs found`);
  const relative = readmes.flatMap((readme) =>
    relativeLinksOf(readme).map((target) => `${readme}: ${target}`),
  );
  assert.deepEqual(relative, []);
});

test('a relative link is any but an anchor or a full address', () => {
  const text = [
    '[up](../element/README.md#x) [here](#x) [own](https://github.com/form-embed/form-embed)',
    '[root](/docs/contract.md) [mail](mailto:a@b.c) <a href="docs/x.md">html</a>',
    '```',
    '[fenced](../y.md)',
    '```',
  ].join('\n');
  assert.deepEqual(relativeLinksOf('packages/x/README.md', text), [
    '../element/README.md#x',
    '/docs/contract.md',
    'docs/x.md',
  ]);
});

test('the links it follows: every way Markdown writes one, and none inside code blocks', () => {
  const text = [
    '# Heading',
    '[inline](a.md) [spaced]( b.md ) [angled](<c d.md>) ![image](e.png)',
    '[titled](f.md "t") [single](g.md \'t\') [parenthesised](h.md (t))',
    '[by reference][ref] and <a href="i.md">html</a> <img src="j.png">',
    '[ref]: k.md',
    '[ref2]: <l m.md> "t"',
    '[own](https://github.com/form-embed/form-embed/tree/main/docs) [anchor](#heading)',
    '````md',
    '```',
    '[fenced](x.md)',
    '```',
    '````',
    '~~~',
    '[fenced](y.md)',
    '~~~',
    '[after](n.md)',
  ].join('\n');
  assert.deepEqual(
    linksOf('README.md', text)
      .map(({ file }) => file)
      .sort(),
    [
      'a.md',
      'b.md',
      'c d.md',
      'e.png',
      'f.md',
      'g.md',
      'h.md',
      'i.md',
      'j.png',
      'k.md',
      'l m.md',
      'docs',
      'README.md',
      'n.md',
    ].sort(),
  );
});
