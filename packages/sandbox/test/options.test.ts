import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type SandboxOptions, startSandbox } from '../src/index.js';
import { listenerOrigin } from '../src/start-sandbox.js';

test('an option startSandbox does not know is refused, named, not ignored: a typo would go unseen', async () => {
  // Each started with the option left out: a 5 s latency that never came, the contract's limits
  // for a load test that asked for more. formEmbedSessions refuses its unknown options the same way.
  const cases: [unknown, string][] = [
    [{ latncyMs: 5000 }, 'latncyMs'],
    [{ controlApi: true, controlOrigin: ['http://localhost:5173'] }, 'controlOrigin'],
    [{ limits: { mint: { perMinute: 6000, burst: 600 } } }, 'limits.mint'],
    [
      { limits: { reads: { perMinute: 6000, burst: 600, perSecond: 100 } } },
      'limits.reads.perSecond',
    ],
  ];
  for (const [options, name] of cases) {
    await assert.rejects(
      // One that starts is closed again, so that the failed test does not hold the process open.
      startSandbox(options as SandboxOptions).then(async (started) => {
        await started.close();
        return started;
      }),
      new RegExp(`^TypeError: startSandbox: unknown option ${name.replaceAll('.', '\\.')}$`),
      name,
    );
  }
});

test('every option it documents is taken, undefined ones too', async (t) => {
  const limit = { perMinute: 120, burst: 120 };
  const sandbox = await startSandbox({
    port: 0,
    formsPort: 0,
    coreFormsPort: undefined,
    handleTtlSeconds: 120,
    sessionTtlSeconds: 1800,
    latencyMs: 0,
    limits: { mints: limit, reads: undefined },
    controlApi: false,
    controlOrigins: [],
  });
  t.after(() => sandbox.close());
  assert.match(sandbox.baseUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
});

test("a listener's origin leaves out the default port, as a browser writes the origin of a page on port 80", () => {
  assert.equal(listenerOrigin(80), 'http://127.0.0.1');
  assert.equal(listenerOrigin(8080), 'http://127.0.0.1:8080');
});
