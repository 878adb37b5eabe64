import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { formEmbedSessions } from '@form-embed/express';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap and typed-array memory in use after a full collection. */
function memoryInUse(): number {
  gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

test('a middleware takes no memory up front for the keys its limits and caches may come to hold: twenty made take under 4 MB in all', () => {
  const options = {
    apiKey: 'sk_test_idle_footprint_0123456789',
    baseUrl: 'https://service.example',
    resolveUser: () => undefined,
    // The embed origins read at start: answered at once, so nothing is left in flight.
    fetch: async () =>
      Response.json({
        formsOrigin: 'https://forms.service.example',
        coreFormsOrigin: 'https://core.service.example',
      }),
  };
  formEmbedSessions(options); // the modules' own first-use allocations, not counted
  const before = memoryInUse();
  const middlewares = Array.from({ length: 20 }, () => formEmbedSessions(options));
  const grown = memoryInUse() - before;
  assert.equal(middlewares.length, 20);
  // Each limit's store holds up to 50,000 keys and the catalogue 10,000 tenants: allocated up
  // front (lru-cache's `max`), that was 3.6 MB a middleware here; counted as they come, 85 KB.
  assert.ok(grown < 4 * 1024 * 1024, `twenty middlewares took ${(grown / 2 ** 20).toFixed(1)} MB`);
});
