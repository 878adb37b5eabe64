import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import FakeTimers from '@sinonjs/fake-timers';
import { serviceOrigins } from '../demo/service-origins.js';

const origins = { formsOrigin: 'https://forms.example', coreFormsOrigin: 'https://core.example' };

// On a real service the demo reads the embed origins for its pages' policy from GET /api/v1/me:
// a page must never wait on that read once one has succeeded, however slow the service is.
test('the demo reads the embed origins once; later pages get them at once while a slow re-read runs', async () => {
  let reads = 0;
  let hang = false;
  const held: ServerResponse[] = [];
  const service = createServer((_req, res) => {
    reads += 1;
    if (hang) held.push(res);
    else res.end(JSON.stringify(origins));
  });
  await new Promise<void>((resolve) => service.listen(0, '127.0.0.1', resolve));
  const clock = FakeTimers.install({ toFake: ['Date'] });
  try {
    const { port } = service.address() as AddressInfo;
    const current = serviceOrigins(`http://127.0.0.1:${port}`, 'fe_test_key');
    expect(await Promise.all([current(), current()])).toEqual([origins, origins]);
    expect(reads).toBe(1);

    hang = true;
    clock.tick(61_000); // past the freshness of the first read
    expect(await current()).toEqual(origins);
    await expect.poll(() => reads).toBe(2);
    expect(await current()).toEqual(origins);
    expect(reads).toBe(2); // one re-read at a time
  } finally {
    clock.uninstall();
    for (const res of held) res.end(JSON.stringify(origins));
    await new Promise((resolve) => service.close(resolve));
  }
});
