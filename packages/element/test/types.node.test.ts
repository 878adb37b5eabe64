import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const src = fileURLToPath(new URL('../src/', import.meta.url));
// Virtual (never written), inside the package so that the declarations find its node_modules.
const out = fileURLToPath(new URL('../.declarations/', import.meta.url));

const base: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
  strict: true,
  skipLibCheck: true,
  types: [],
};

/** The declarations `npm run build` emits, kept in memory: file name to text. */
function declarations() {
  const options: ts.CompilerOptions = {
    ...base,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    declaration: true,
    emitDeclarationOnly: true,
    rootDir: src,
    outDir: out,
  };
  const emitted = new Map<string, string>();
  const host = ts.createCompilerHost(options);
  host.writeFile = (name, text) => emitted.set(name, text);
  ts.createProgram([`${src}define.ts`], options, host).emit();
  return emitted;
}

/** Type errors of `code`, a page that imports only `@form-embed/element/define` as built. */
function typeErrors(code: string, emitted: Map<string, string>) {
  const options: ts.CompilerOptions = {
    ...base,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
    paths: { '@form-embed/element/define': [`${out}define.d.ts`] },
  };
  const host = ts.createCompilerHost(options);
  const files = new Map([...emitted, [`${out}page.ts`, code]]);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => files.has(name) || fileExists(name);
  host.directoryExists = (name) => name === out.slice(0, -1) || ts.sys.directoryExists(name);
  host.readFile = (name) => files.get(name) ?? readFile(name);
  host.getSourceFile = (name, version, ...rest) => {
    const text = files.get(name);
    if (text === undefined) return getSourceFile(name, version, ...rest);
    return ts.createSourceFile(name, text, version);
  };
  const program = ts.createProgram([`${out}page.ts`], options, host);
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

describe('event types', () => {
  const emitted = declarations();

  test('define.d.ts loads the event types', () => {
    assert.match(emitted.get(`${out}define.d.ts`) ?? '', /from '\.\/events\.js'/);
  });

  test('a page importing only @form-embed/element/define has every event typed on document, window and elements', () => {
    const page = `
      import '@form-embed/element/define';
      document.addEventListener('form-embed-error', (e) => { const c: string = e.code; const r: boolean = e.willRetry; });
      window.addEventListener('form-embed-session', (e) => { const n: number = e.attempt; });
      document.querySelector('form-embed')?.addEventListener('form-embed-notice', (e) => { const r: 'expired' = e.reason; });
      document.body.addEventListener('form-embed-remint', (e) => { const r: 'expired' | 'error' = e.reason; });
    `;
    assert.deepEqual(typeErrors(page, emitted), []);
  });

  test('the check can fail: a wrong field is a type error', () => {
    const page = `
      import '@form-embed/element/define';
      document.addEventListener('form-embed-error', (e) => { const w: string = e.willRetry; });
    `;
    assert.equal(typeErrors(page, emitted).length, 1);
  });
});
