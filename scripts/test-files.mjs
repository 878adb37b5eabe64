// `node --conditions=@form-embed/source --import tsx --test-reporter=spec scripts/test-files.mjs test/*.test.ts`:
// runs the named test files in this one process, one after another, as `node --test
// --test-concurrency=1` would. Node 20's `node --test` starts a process per file, each loading tsx
// and the package again: about a second a file, most of a package's test time on two cores.
// (Node 22's `--experimental-test-isolation=none` runs them in one process too, but a file's
// top-level hooks are there the root's, shared by every file: see below.) A file that fails to
// load fails the run; node:test sets the exit code when a test fails.
import { AsyncResource } from 'node:async_hooks';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { describe } from 'node:test';
import { pathToFileURL } from 'node:url';
import { transform } from 'esbuild';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('test-files: name the test files to run');
  process.exit(2);
}
// In one process, `--test-timeout` is not applied (Node 20): a test that never settles would hold
// the run, and CI, until CI's own limit. A file's suite is bounded instead: its test still running
// then is named and cancelled, and the next file runs. The slowest file takes about 20 s under
// CI's load (TEST_FILE_TIMEOUT_MS sets another bound).
const FILE_TIMEOUT_MS = Number(process.env.TEST_FILE_TIMEOUT_MS ?? 120_000);
// What a cancelled test left open (a server, an interval) still holds the process: five minutes
// is a hang (TEST_FILES_WATCHDOG_MS sets another bound).
const WATCHDOG_MS = Number(process.env.TEST_FILES_WATCHDOG_MS ?? 5 * 60_000);
setTimeout(() => {
  console.error(
    `test-files: ${files.join(' ')} still running after ${WATCHDOG_MS / 1000} s: a test hangs`,
  );
  process.exit(1);
}, WATCHDOG_MS).unref();

// Each file in a suite of its own, so that its top-level hooks are its own, as in a process of
// its own. Imported at the top level, they were the root's: a later file's `before` ran as it was
// imported, while the first file's tests ran (every file's servers started at once), a
// `beforeEach` ran before every later file's tests, every `after` only at the end, and a `before`
// that failed failed every test after it, in any file.
// A suite knows its tests by the async context they are declared in, which a top-level await can
// lose: after awaiting esbuild, size.node.test.ts declared its tests in the context of the file
// that had started esbuild's service, or in none (they then never ran, and nothing failed). So a
// file that awaits at its top level is refused; it awaits in a `before` hook instead.
for (const file of files) {
  // CommonJS cannot hold a top-level await, and esbuild's error says so; any other error (a
  // syntax error) is left to the import, which fails the file's suite.
  const refused = await transform(await readFile(file, 'utf8'), { loader: 'ts', format: 'cjs' })
    .then(() => undefined)
    .catch((error) => /top-level await/i.test(error.message));
  if (refused) {
    console.error(
      `test-files: ${file} awaits at its top level, so its tests may be declared outside its suite and never run: await in a before hook instead`,
    );
    process.exit(1);
  }
}
// One file imported after another: a module that awaits at its top level (a script's, only when
// it is run itself) is evaluated asynchronously, and so is each module importing it, by the file
// that imported it first. Imported together, a second file importing it too was evaluated in the
// first's context, and its tests and hooks were the first's (size.node.test.ts's under
// entries.node.test.ts's suite). Each suite is declared in this module's context, not in that of
// the import awaited last, which would declare it inside the last suite.
// A file is imported only once the file before it has run, as in a process of its own: imported
// as soon as the one before was evaluated, it was evaluated while that file's tests ran, and saw
// whatever they had installed meanwhile. A named import of a Node module is its exports as the
// first `import` of that module found them: browser-gone.test.ts's `setTimeout as sleep` from
// node:timers/promises, first imported while a test of store-timeout.test.ts had fake timers
// installed, was the fake clock's, which nothing ticked after: its tests never ended.
const topLevel = new AsyncResource('test-files');
// A test awaiting what nothing holds open (a promise a fake clock would settle) would otherwise end
// the event loop, and the run with it, before the next files are declared: they would be neither
// run nor reported. Held open, such a test is cancelled at the file's timeout instead.
const keepAlive = setInterval(() => {}, FILE_TIMEOUT_MS);
for (const file of files) {
  let imported;
  // A top-level suite's promise settles once it has run (passed, failed, timed out, or its file
  // failed to load).
  const ran = topLevel.runInAsyncScope(() =>
    describe(file, { timeout: FILE_TIMEOUT_MS }, () => {
      imported = import(pathToFileURL(resolve(file)).href);
      return imported;
    }),
  );
  await ran;
  // A file that fails to load fails its suite, and the run: Node 22 reports the suite failed but
  // leaves the exit code 0, so it is set here.
  await imported?.catch(() => {
    process.exitCode = 1;
  });
}
clearInterval(keepAlive);
