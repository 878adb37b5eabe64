// scripts/test-files.mjs runs a package's test files in one process: each file's hooks must stay
// its own, as they are when `node --test` gives each file a process.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const runner = fileURLToPath(new URL('./test-files.mjs', import.meta.url));
const folders = [];
after(() => Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true }))));

/** Writes `files` (name: code) to a folder, runs those named *.test.mjs with the runner; its TAP, code and log. */
async function runFiles(files, extraEnv = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'form-embed-test-files-'));
  folders.push(dir);
  const log = join(dir, 'log');
  await writeFile(log, '');
  const prelude = `import { after, before, beforeEach, test } from 'node:test';
import { appendFileSync } from 'node:fs';
const log = (line) => appendFileSync(${JSON.stringify(log)}, line + '\\n');\n`;
  for (const [name, code] of Object.entries(files)) {
    await writeFile(join(dir, name), prelude + code);
  }
  // Not as a subtest of this run (`node --test` tells its children so): a run of its own, in TAP.
  const { NODE_TEST_CONTEXT: _, ...env } = { ...process.env, ...extraEnv };
  const { code, stdout } = await new Promise((resolve) => {
    execFile(
      process.execPath,
      [
        '--test-reporter=tap',
        runner,
        ...Object.keys(files).filter((name) => name.endsWith('.test.mjs')),
      ],
      { cwd: dir, env },
      (error, out) => resolve({ code: error ? error.code : 0, stdout: out }),
    );
  });
  return { code, stdout, log: (await readFile(log, 'utf8')).trim().split('\n') };
}

const passed = (tap, name) => new RegExp(`^\\s*ok \\d+ - ${name}$`, 'm').test(tap);

test("a file's before, beforeEach and after hooks run for its own tests only, in file order", async () => {
  const { code, stdout, log } = await runFiles({
    'a.test.mjs': `beforeEach(() => log('a beforeEach'));
after(() => log('a after'));
test('a1', async () => { await new Promise((r) => setTimeout(r, 50)); log('a1'); });`,
    'b.test.mjs': `before(() => log('b before'));
after(() => log('b after'));
test('b1', () => log('b1'));`,
  });
  assert.equal(code, 0, stdout);
  assert.deepEqual(log, ['a beforeEach', 'a1', 'a after', 'b before', 'b1', 'b after']);
});

// A module that awaits at its top level (here, as a script's does, only when run itself) is
// evaluated asynchronously, and so is every module importing it: the one that imported it first
// finishes it, and another file importing it too was evaluated in that file's context.
test("a file's tests and hooks stay its own when it shares an import with another that awaits at its top level", async () => {
  const shared = `import { helper } from './helper.mjs';\n`;
  const { code, stdout, log } = await runFiles({
    'helper.mjs': `export const helper = 1;
if (process.env.NEVER_SET) await helper;`,
    'a.test.mjs': `${shared}after(() => log('a after'));
test('a1', () => log('a1'));`,
    'b.test.mjs': `${shared}before(() => log('b before'));
after(() => log('b after'));
test('b1', () => log('b1'));`,
  });
  assert.equal(code, 0, stdout);
  assert.deepEqual(log, ['a1', 'a after', 'b before', 'b1', 'b after']);
});

test("a file whose before hook fails fails its own tests, not the other files'", async () => {
  const { code, stdout } = await runFiles({
    'a.test.mjs': `test('a1', () => {});`,
    'b.test.mjs': `before(() => { throw new Error('b could not start'); });
test('b1', () => {});`,
    'c.test.mjs': `test('c1', () => {});`,
  });
  assert.equal(code, 1, stdout);
  assert.ok(passed(stdout, 'a1'), stdout);
  assert.ok(!passed(stdout, 'b1'), stdout);
  assert.ok(passed(stdout, 'c1'), stdout);
});

test('a file that fails to load fails the run', async () => {
  const { code, stdout } = await runFiles({
    'a.test.mjs': `test('a1', () => {});`,
    'b.test.mjs': `throw new Error('b does not load');`,
  });
  assert.equal(code, 1, stdout);
});

test('a file that awaits at its top level is refused, named, before any test runs', async () => {
  const { code, stdout, log } = await runFiles({
    'a.test.mjs': `test('a1', () => log('a1'));`,
    'b.test.mjs': `await new Promise((r) => setTimeout(r, 10));
test('b1', () => log('b1'));`,
  });
  assert.equal(code, 1, stdout);
  assert.deepEqual(log, ['']);
});

test("a test that never settles is named and cancelled once its file's time is up, and the next file runs", async () => {
  const { code, stdout, log } = await runFiles(
    {
      // The interval holds the process, as a server a hung test left open would.
      'a.test.mjs': `const open = setInterval(() => {}, 1_000);
test('a1', () => new Promise(() => {}));
after(() => clearInterval(open));`,
      'b.test.mjs': `test('b1', () => log('b1'));`,
    },
    { TEST_FILE_TIMEOUT_MS: '300' },
  );
  assert.equal(code, 1, stdout);
  assert.match(stdout, /^\s*not ok \d+ - a1$/m, stdout);
  assert.ok(passed(stdout, 'b1'), stdout);
  assert.deepEqual(log, ['b1']);
});

test("a test awaiting what nothing holds open is cancelled at its file's timeout, and the next files still run and are reported", async () => {
  const { code, stdout, log } = await runFiles(
    {
      'a.test.mjs': `test('a1', () => new Promise(() => {}));`,
      'b.test.mjs': `test('b1', () => log('b1'));`,
      'c.test.mjs': `test('c1', () => { throw new Error('c1 fails'); });`,
    },
    { TEST_FILE_TIMEOUT_MS: '300' },
  );
  assert.equal(code, 1, stdout);
  assert.match(stdout, /^\s*not ok \d+ - a1$/m, stdout);
  assert.ok(passed(stdout, 'b1'), stdout);
  assert.match(stdout, /^\s*not ok \d+ - c1$/m, stdout);
  assert.deepEqual(log, ['b1']);
});

test("a file is imported only once the file before it has run: it does not see what that file's tests installed meanwhile (a fake clock, say)", async () => {
  const { code, stdout, log } = await runFiles({
    'a.test.mjs': `test('a1', async () => {
  globalThis.installed = 'fake clock';
  await new Promise((r) => setTimeout(r, 50));
  delete globalThis.installed;
});`,
    'b.test.mjs': `log('b imported, installed: ' + globalThis.installed);
test('b1', () => {});`,
  });
  assert.equal(code, 0, stdout);
  assert.deepEqual(log, ['b imported, installed: undefined']);
});
