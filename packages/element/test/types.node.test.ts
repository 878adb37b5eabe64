import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
// The compiler's command line (its bin; the package exports no JS API of the kind TypeScript 5 had).
const tsc = join(
  dirname(createRequire(import.meta.url).resolve('typescript/package.json')),
  'bin/tsc',
);

// The protocol from its sources, as the repository's typecheck has it: no build needed first.
const protocol = {
  '@form-embed/protocol/browser': [join(packageDir, '../protocol/src/browser.ts')],
};

// The sources' target and lib (tsconfig.base.json): the programs below compile them too.
const base = {
  target: 'es2022',
  lib: ['es2023', 'es2024.string', 'dom'],
  strict: true,
  skipLibCheck: true,
  types: [],
};

/**
 * Runs tsc on a config written into `dir`; resolves with its error lines (none: []). A failure
 * that reports no type error (tsc could not start, a bad config) throws.
 */
async function compile(dir: string, name: string, config: object): Promise<string[]> {
  const path = join(dir, `${name}.tsconfig.json`);
  await writeFile(path, JSON.stringify(config));
  const { failed, output } = await new Promise<{ failed: boolean; output: string }>((resolve) => {
    execFile(process.execPath, [tsc, '-p', path, '--pretty', 'false'], (error, stdout, stderr) =>
      resolve({ failed: error !== null, output: `${stdout}${stderr}` }),
    );
  });
  const errors = output.split('\n').filter((line) => /error TS\d+:/.test(line));
  if (failed && errors.length === 0) throw new Error(`tsc failed without a type error:\n${output}`);
  return errors;
}

describe('event types', () => {
  // Inside the package, so that the declarations find its node_modules; removed afterwards.
  let dir: string;
  let pages = 0;
  before(async () => {
    dir = await mkdtemp(join(packageDir, '.types-test-'));
    // The declarations `npm run build` emits for `define`.
    const errors = await compile(dir, 'declarations', {
      compilerOptions: {
        ...base,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        declaration: true,
        emitDeclarationOnly: true,
        stripInternal: true, // as tsconfig.build.json
        // The packages folder: the protocol's sources are in the program too.
        rootDir: join(packageDir, '..'),
        outDir: join(dir, 'declarations'),
        paths: protocol,
      },
      files: [join(packageDir, 'src/define.ts')],
    });
    assert.deepEqual(errors, []);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Type errors of `code`, a page that imports only `@form-embed/element/define` as built. */
  async function typeErrors(code: string) {
    const page = join(dir, `page-${++pages}.ts`);
    await writeFile(page, code);
    return compile(dir, `page-${pages}`, {
      compilerOptions: {
        ...base,
        module: 'esnext',
        moduleResolution: 'bundler',
        noEmit: true,
        paths: {
          ...protocol,
          '@form-embed/element/define': [join(dir, 'declarations/element/src/define.d.ts')],
        },
      },
      files: [page],
    });
  }

  test('define.d.ts loads the event types', async () => {
    const define = await readFile(join(dir, 'declarations/element/src/define.d.ts'), 'utf8');
    assert.match(define, /from '\.\/events\.js'/);
  });

  test('a page importing only @form-embed/element/define has every event typed on document, window and elements', async () => {
    const page = `
      import '@form-embed/element/define';
      document.addEventListener('form-embed-error', (e) => { const c: string = e.code; const r: boolean = e.willRetry; });
      window.addEventListener('form-embed-session', (e) => { const n: number = e.attempt; });
      document.querySelector('form-embed')?.addEventListener('form-embed-notice', (e) => { const r: 'expired' = e.reason; });
      document.body.addEventListener('form-embed-remint', (e) => { const r: 'expired' | 'error' = e.reason; });
    `;
    assert.deepEqual(await typeErrors(page), []);
  });

  test('the check can fail: a wrong field is a type error', async () => {
    const page = `
      import '@form-embed/element/define';
      document.addEventListener('form-embed-error', (e) => { const w: string = e.willRetry; });
    `;
    assert.equal((await typeErrors(page)).length, 1);
  });

  test("a partner's subclass overrides the lifecycle callbacks and calls them on; the members the element's classes share are not in its types", async () => {
    const subclass = `
      import { FormEmbedElement } from '@form-embed/element/define';
      export class PartnerEmbed extends FormEmbedElement {
        override adoptedCallback() { super.adoptedCallback(); }
        override connectedMoveCallback() { super.connectedMoveCallback(); }
        override remint() { super.remint(); }
      }
    `;
    assert.deepEqual(await typeErrors(subclass), []);
    const reaching = `
      import { FormEmbedElement } from '@form-embed/element/define';
      export class PartnerEmbed extends FormEmbedElement {
        paint() { this._paintStatus(); }
      }
    `;
    assert.match((await typeErrors(reaching)).join('\n'), /_paintStatus/);
  });
});

describe('React 19 types (react-jsx and the react wrapper)', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(packageDir, '.types-test-react-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  /** Type errors of `code`, a React 19 page (.tsx) importing the element's React entries. */
  async function jsxErrors(name: string, code: string) {
    await writeFile(join(dir, `${name}.tsx`), code);
    return compile(dir, name, {
      compilerOptions: {
        ...base,
        module: 'esnext',
        moduleResolution: 'bundler',
        jsx: 'react-jsx',
        noEmit: true,
        paths: {
          ...protocol,
          '@form-embed/element/react': [join(packageDir, 'src/react.ts')],
          '@form-embed/element/react-jsx': [join(packageDir, 'src/react-jsx.ts')],
        },
      },
      files: [join(dir, `${name}.tsx`)],
    });
  }

  const imports = `
    import '@form-embed/element/react-jsx';
    import { FormEmbed } from '@form-embed/element/react';
  `;

  test('the raw tag and the wrapper take every property of the element and type each event', async () => {
    const page = `${imports}
      const fetchSession = async () => { throw new Error('offline'); };
      export const raw = (
        <form-embed
          form-id="f_1"
          messages={{ loading: 'Lädt …', user_not_found: 'Bitte wenden Sie sich an die IT.' }}
          allowedEndpointOrigins={['https://portal.example']}
          requestInit={{ headers: { 'X-CSRF-Token': 't' } }}
          fetchSession={fetchSession}
          onform-embed-notice={(event) => { const reason: 'expired' = event.reason; event.preventDefault(); }}
          onform-embed-error={(event) => { const retry: boolean = event.willRetry; }}
        />
      );
      export const wrapped = (
        <FormEmbed
          formId="f_1"
          messages={{ dismiss: 'Schließen' }}
          allowedEndpointOrigins={['https://portal.example']}
          requestInit={{ headers: { 'X-CSRF-Token': 't' } }}
          onNotice={(event) => { const reason: 'expired' = event.reason; }}
          onSession={(event) => { const attempt: number = event.attempt; }}
          onError={(event) => { if (event.code === 'sign_in_required') event.preventDefault(); }}
          className="embed"
        />
      );
      // The tag is typed for a page that imports only these entries.
      document.querySelector('form-embed')?.remint();
    `;
    assert.deepEqual(await jsxErrors('valid', page), []);
  });

  test('the check can fail: a wrong property value or event field is a type error on its line', async () => {
    const page = `${imports}
      export const a = <form-embed messages={{ loading: 1 }} />; // must-fail
      export const b = <form-embed onform-embed-notice={(event: KeyboardEvent) => event.key} />; // must-fail
      export const c = <FormEmbed allowedEndpointOrigins="https://portal.example" />; // must-fail
      export const d = <FormEmbed onNotice={(event) => { const n: number = event.reason; }} />; // must-fail
      export const e = <FormEmbed messages={{ frame: 'Formular' }} />;
      export const f = <FormEmbed state="framed" />; // must-fail
      export const g = <FormEmbed remint={() => {}} />; // must-fail
    `;
    const marked = page
      .split('\n')
      .flatMap((line, index) => (line.includes('// must-fail') ? [index + 1] : []));
    const errors = await jsxErrors('invalid', page);
    const lines = new Set(errors.map((error) => Number(/\.tsx\((\d+),/.exec(error)?.[1])));
    assert.deepEqual([...lines], marked, errors.join('\n'));
  });
});
