// The READMEs' ```ts, ```tsx and ```js blocks as files of the readme-snippets setup, so that the
// setups lane type-checks what a partner copies first against the packed packages. A block
// opened otherwise as TypeScript or JavaScript (```typescript, ```jsx, ```ts title=…, ~~~ts)
// fails the reading, naming its line, rather than go unchecked (snippets.test.ts).
//
// Every such block is checked, a page's as a program of its own (a block that types the tag only
// because another imported /define must fail). A block that imports @form-embed/element, and a
// tsx block, is a page's code (tsconfig.browser.json: DOM, bundler resolution, React 19's JSX);
// any other is a Node server's (tsconfig.json: nodenext). A block whose first line is a file name comment (`// tests/limits.spec.ts`) is
// written to that file, so that another block may import it. An HTML comment on the line just
// before a block, unseen in the rendered README, says what a fragment needs:
//   <!-- snippet assumes: app, signedInUser -->   names from src/<kind>/assumed.ts it uses
//   <!-- snippet skipped: <why> -->                a block left unchecked, with the reason
//   <!-- snippet setup: <folder> -->               a block that setup builds itself (angular21's
//                                                  component), with its framework, not checked here
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { repositoryRoot } from './tarballs.js';

export const readmes = [
  'README.md',
  'packages/protocol/README.md',
  'packages/express/README.md',
  'packages/element/README.md',
  'packages/sandbox/README.md',
];

export interface Snippet {
  /** The README, from the repository's root. */
  readme: string;
  /** The README's line of the block's first line of code (1-based). */
  line: number;
  lang: 'ts' | 'tsx' | 'js';
  /** The block's code, its list indentation taken off. */
  code: string;
  assumes: string[];
  /** Why the block is not checked, when it is not. */
  skipped?: string;
  /** The setup (its folder under setups/) that builds the block, in place of readme-snippets. */
  setup?: string;
}

/** A fence's opening: its indentation, its run of backticks or tildes, and its info string. */
const fence = /^(\s*)(`{3,}|~{3,})(.*)$/;
/**
 * The first word of an info string that GitHub or npm would show as TypeScript or JavaScript,
 * any case. Only a block opened with exactly ```ts, ```tsx or ```js is checked: another such
 * opening fails the check rather than go unchecked.
 */
const scriptLike = /^(?:[cm]?[jt]sx?|typescript|javascript|node)$/i;
const marker = /^\s*<!--\s*snippet\s+(assumes|skipped|setup):\s*(.*?)\s*-->\s*$/;

/** Every ```ts, ```tsx and ```js block of one README, with what its comment says of it. */
export function snippetsOf(readme: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    const opening = fence.exec(lines[index] ?? '');
    if (!opening) continue;
    const [, indent = '', marks = '', info = ''] = opening;
    // Closed by a run of the same mark at least as long (CommonMark), so that a block shown
    // inside a longer fence is content, and a fence's info string is never taken for a close.
    const closing = new RegExp(`^\\s*${marks[0]}{${marks.length},}\\s*$`);
    const end = lines.findIndex((line, at) => at > index && closing.test(line));
    if (end < 0) throw new Error(`${readme}:${index + 1}: a code block that never ends`);
    const lang = info.trim();
    if (marks === '```' && (lang === 'ts' || lang === 'tsx' || lang === 'js')) {
      const code = lines.slice(index + 1, end).map((line) => line.slice(indent.length));
      const said = comment(readme, lines, index);
      snippets.push({
        readme,
        line: index + 2,
        lang,
        code: `${code.join('\n')}\n`,
        assumes: said?.kind === 'assumes' ? said.value.split(/\s*,\s*/) : [],
        ...(said?.kind === 'skipped' && { skipped: said.value }),
        ...(said?.kind === 'setup' && { setup: said.value }),
      });
    } else if (scriptLike.test(lang.split(/\s/)[0] ?? '')) {
      throw new Error(
        `${readme}:${index + 1}: a block opened ${marks}${lang} would go unchecked: open it with exactly \`\`\`ts, \`\`\`tsx or \`\`\`js (no title or other words); one left unchecked on purpose is still \`\`\`ts, after <!-- snippet skipped: why -->`,
      );
    }
    index = end;
  }
  return snippets;
}

/** The `<!-- snippet … -->` comment on the last non-blank line before the block, if any. */
function comment(readme: string, lines: string[], fenceIndex: number) {
  let before = fenceIndex - 1;
  while (before >= 0 && lines[before]?.trim() === '') before--;
  const line = lines[before] ?? '';
  if (!/<!--\s*snippet/.test(line)) return undefined;
  const said = marker.exec(line);
  if (!said?.[2]) {
    throw new Error(
      `${readme}:${before + 1}: write '<!-- snippet assumes: name, … -->', '<!-- snippet skipped: why -->' or '<!-- snippet setup: folder -->'`,
    );
  }
  return { kind: said[1] as 'assumes' | 'skipped' | 'setup', value: said[2] };
}

export async function readmeSnippets(): Promise<Snippet[]> {
  const all = await Promise.all(
    readmes.map(async (readme) =>
      snippetsOf(readme, await readFile(join(repositoryRoot, readme), 'utf8')),
    ),
  );
  return all.flat();
}

export interface SnippetFile {
  snippet: Snippet;
  /** The setup's tsconfig that checks it. */
  config: 'tsconfig.json' | 'tsconfig.browser.json';
  /** From the project's folder: src/server/… or src/browser/…. */
  path: string;
  text: string;
}

/**
 * The file a snippet is checked as. The assumed names are imported on its last line, so that a
 * line of the file is the same line of the block.
 */
export function snippetFile(snippet: Snippet): SnippetFile {
  const page =
    snippet.lang === 'tsx' || /^import\b[^;]*'@form-embed\/element[/']/m.test(snippet.code);
  const kind = page ? 'browser' : 'server';
  const named = /^\/\/ ([\w./-]+\.(?:ts|tsx|js))$/.exec(snippet.code.split('\n')[0] ?? '')?.[1];
  const readmeName = snippet.readme.replace(/^packages\/|\/?README\.md$/g, '') || 'root';
  const file = named ?? `${readmeName}-${snippet.line}.${snippet.lang}`;
  const path = join('src', kind, file);
  const assumed = relative(join('src', kind, file, '..'), join('src', kind, 'assumed.js'));
  const imports = snippet.assumes.length
    ? `import { ${snippet.assumes.join(', ')} } from '${assumed.startsWith('.') ? '' : './'}${assumed}';\n`
    : '';
  const config = kind === 'browser' ? 'tsconfig.browser.json' : 'tsconfig.json';
  return { snippet, config, path, text: `${snippet.code}${imports}` };
}

/** tsc's errors, each `file(line,col): error …` told at the README's own line. */
export function inReadmes(output: string, files: SnippetFile[]): string[] {
  return output
    .split('\n')
    .filter((line) => /\berror TS\d+/.test(line))
    .map((line) => {
      const [, path, row = '', column, error] = /^(\S+)\((\d+),(\d+)\): (.*)$/.exec(line) ?? [];
      const file = files.find((candidate) => candidate.path === path);
      if (!file) return line;
      const { readme, line: first } = file.snippet;
      return `${readme}:${first + Number(row) - 1}:${column}: ${error}`;
    });
}

/**
 * Writes `files` into the setup at `dir` and type-checks them with `tsc`, two programs at a time:
 * the errors, told at the READMEs' lines. Each page's block is a program of its own, since the
 * element's entries declare globals (the tag in HTMLElementTagNameMap and React's JSX) that one
 * block's import would lend every other; the server's blocks, which no package of ours declares
 * a global for, are one program. Each tsc is single-threaded: two run at once, on two cores, and
 * TypeScript 7's parallel checkers would each check the declarations they share again.
 */
export async function typeCheck(dir: string, files: SnippetFile[], tsc: string): Promise<string[]> {
  for (const file of files) {
    await mkdir(dirname(join(dir, file.path)), { recursive: true });
    await writeFile(join(dir, file.path), file.text, { flag: 'wx' });
  }
  const server = files.filter((file) => file.config === 'tsconfig.json');
  const pages = files.filter((file) => file.config === 'tsconfig.browser.json');
  const waiting = [server, ...pages.map((page) => [page])].map((program, index) => ({
    program,
    config: `tsconfig.snippets-${index}.json`,
  }));
  const errors: string[] = [];
  const checkNext = async (): Promise<void> => {
    const next = waiting.shift();
    if (!next) return;
    const [first] = next.program;
    const paths = next.program.map((file) => file.path);
    await writeFile(
      join(dir, next.config),
      JSON.stringify({ extends: `./${first?.config}`, include: [], files: paths }),
    );
    const args = ['-p', next.config, '--pretty', 'false', '--singleThreaded'];
    const failed = await promisify(execFile)(tsc, args, { cwd: dir }).then(
      () => undefined,
      (error: { stdout?: string; stderr?: string }) => `${error.stdout}${error.stderr}`,
    );
    if (failed !== undefined) {
      const told = inReadmes(failed, files);
      errors.push(...(told.length > 0 ? told : [`tsc -p ${next.config} failed:\n${failed}`]));
    }
    return checkNext();
  };
  await Promise.all([checkNext(), checkNext()]);
  return [...new Set(errors)].sort();
}
