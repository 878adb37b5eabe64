import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startNginx } from './helpers/nginx.js';

describe('the tests’ nginx', () => {
  test('an nginx that cannot start leaves no folder behind: not its configuration, nor its certificate’s private key', async () => {
    // A temporary folder of this test's own, where startNginx makes its folder.
    const tmp = await mkdtemp(join(tmpdir(), 'nginx-helper-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      await assert.rejects(
        startNginx(() => 'no_such_directive on;'),
        /unknown directive "no_such_directive"/,
      );
      assert.deepEqual(await readdir(tmp), []);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
