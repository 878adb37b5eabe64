import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PortalErrorCodes, SessionErrorCodes } from '../src/index.js';

const repo = new URL('../../../', import.meta.url);
const docs = new URL('docs/', repo);
const pages = readdirSync(docs).filter((name) => name.endsWith('.md'));
const read = (name: string) => readFileSync(new URL(name, docs), 'utf8');

/** The repository's own text files, outside dependencies and build output. */
function sourceFiles(dir: URL): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (
      entry.name.startsWith('.') ||
      /^(node_modules|dist|test-results|playwright-report)$/.test(entry.name)
    )
      return [];
    if (entry.isDirectory()) return sourceFiles(new URL(`${entry.name}/`, dir));
    return /\.(ts|mts|mjs|md|html)$/.test(entry.name)
      ? [fileURLToPath(new URL(entry.name, dir))]
      : [];
  });
}

/** Rows of the Markdown table whose first cell is a `code`: [code, status, retryable]. */
function codeRows(markdown: string): [string, string, string][] {
  return [...markdown.matchAll(/^\| `(\w+)` \| ([^|]+) \| ([^|]+) \|/gm)].map((m) => [
    m[1] as string,
    (m[2] as string).trim(),
    (m[3] as string).trim(),
  ]);
}

describe('docs/', () => {
  test('every relative link in docs/*.md names a file of the repository', () => {
    for (const page of pages) {
      for (const [, target] of read(page).matchAll(/\]\((\.[^)#\s]+)/g)) {
        const path = fileURLToPath(new URL(target as string, new URL(page, docs)));
        assert.ok(existsSync(path), `${page} links to ${target}, which does not exist`);
      }
    }
  });

  test('every anchor of docs/contract.md that a link or a comment of the repository uses is a heading there', () => {
    const headings = new Set(
      [...read('contract.md').matchAll(/^#+ (.+)$/gm)].map((m) =>
        (m[1] as string)
          .toLowerCase()
          .replace(/[^\w\s-]/g, '')
          .replace(/\s/g, '-'),
      ),
    );
    const uses = pages.flatMap((page) =>
      [...read(page).matchAll(/\]\((?:\.\/)?(?:contract\.md)?#([\w-]+)\)/g)].map((m) => ({
        where: `docs/${page}`,
        anchor: m[1] as string,
        own: page === 'contract.md' || m[0].includes('contract.md'),
      })),
    );
    for (const file of sourceFiles(repo)) {
      for (const m of readFileSync(file, 'utf8').matchAll(/docs\/contract\.md#([\w-]+)/g)) {
        uses.push({ where: file, anchor: m[1] as string, own: true });
      }
    }
    for (const { where, anchor, own } of uses) {
      if (own) assert.ok(headings.has(anchor), `${where} points at missing contract.md#${anchor}`);
    }
  });

  test('nothing in the repository points at a document outside it', () => {
    // Spelled in parts, so that this file does not match itself.
    const outside = new RegExp(['partner-api', '\\.md|DESIGN', '\\.md|\\.\\./shared/'].join(''));
    for (const file of sourceFiles(repo)) {
      const line = readFileSync(file, 'utf8')
        .split('\n')
        .findIndex((text) => outside.test(text));
      assert.equal(line, -1, `${file}:${line + 1} points outside the repository`);
    }
  });

  test("contract.md's SessionError and portal code tables agree with the protocol's, row by row", () => {
    const rows = codeRows(read('contract.md'));
    const table = { ...SessionErrorCodes, ...PortalErrorCodes };
    assert.deepEqual(rows.map(([code]) => code).sort(), Object.keys(table).sort());
    for (const [code, status, retryable] of rows) {
      const fact = table[code as keyof typeof table];
      assert.equal(status.startsWith(String(fact.status ?? 'none')), true, `${code} status`);
      assert.equal(retryable.startsWith(fact.retryable ? 'yes' : 'no'), true, `${code} retryable`);
    }
  });
});
