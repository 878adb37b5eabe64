// `node --conditions=@form-embed/source --import tsx --test-reporter=spec scripts/test-files.mjs test/*.test.ts`:
// runs the named test files in this one process, one after another, as `node --test
// --test-concurrency=1` would. Node 20's `node --test` starts a process per file, each loading tsx
// and the package again: about a second a file, most of a package's test time on two cores.
// (Node 22's `--experimental-test-isolation=none` does the same.) A file that fails to load fails
// the run; node:test sets the exit code when a test fails.
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('test-files: name the test files to run');
  process.exit(2);
}
// In one process, `--test-timeout` is not applied (Node 20): a test that never settles would hold
// the run, and CI, until CI's own limit. A package's files take seconds; five minutes is a hang
// (TEST_FILES_WATCHDOG_MS sets another bound).
const WATCHDOG_MS = Number(process.env.TEST_FILES_WATCHDOG_MS ?? 5 * 60_000);
setTimeout(() => {
  console.error(
    `test-files: ${files.join(' ')} still running after ${WATCHDOG_MS / 1000} s: a test hangs`,
  );
  process.exit(1);
}, WATCHDOG_MS).unref();

for (const file of files) await import(pathToFileURL(resolve(file)).href);
