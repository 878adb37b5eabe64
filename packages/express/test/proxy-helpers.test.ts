import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { startHaproxy } from './helpers/haproxy.js';
import { startNginx } from './helpers/nginx.js';
import type { TlsProxy } from './helpers/tls-proxy.js';

/** Each proxy the tests start, with a configuration it refuses and its complaint. */
const proxies: {
  name: string;
  start: (config: () => string) => Promise<TlsProxy>;
  refused: RegExp;
}[] = [
  { name: 'nginx', start: startNginx, refused: /unknown directive "no_such_directive"/ },
  { name: 'HAProxy', start: startHaproxy, refused: /unknown keyword 'no_such_directive'/ },
];

for (const proxy of proxies) {
  describe(`the tests’ ${proxy.name}`, () => {
    test(`one that cannot start leaves no folder behind: not its configuration, nor its certificate’s private key`, async () => {
      // A temporary folder of this test's own, where the proxy's folder is made.
      const tmp = await mkdtemp(join(tmpdir(), 'proxy-helper-'));
      const before = process.env.TMPDIR;
      process.env.TMPDIR = tmp;
      try {
        await assert.rejects(
          proxy.start(() => 'no_such_directive on;'),
          proxy.refused,
        );
        assert.deepEqual(await readdir(tmp), []);
      } finally {
        if (before === undefined) delete process.env.TMPDIR;
        else process.env.TMPDIR = before;
        await rm(tmp, { recursive: true, force: true });
      }
    });
  });
}
