import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { test } from 'node:test';

// redis-store.test.ts runs portal processes (helpers/redis-portal.ts) against a real
// redis-server killed, paused and restarted under them, to prove what the README's Redis section
// says of its client: that proof holds only for the client the README shows.

const readme = new URL('../README.md', import.meta.url);
const portal = new URL('./helpers/redis-portal.ts', import.meta.url);

/** The lines from `first` to `last`, both included, each trimmed, blank ones left out. */
function linesBetween(text: string, first: string, last: string): string[] {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const start = lines.indexOf(first);
  const end = lines.indexOf(last, start);
  assert.ok(start >= 0 && end > start, `no lines from ${first} to ${last}`);
  return lines.slice(start, end + 1);
}

test("the two-process Redis tests run the README's Redis client as it is: createClient's options, the error listener and the connect that is not awaited", async () => {
  const [readmeText, portalText] = await Promise.all([
    readFile(readme, 'utf8'),
    readFile(portal, 'utf8'),
  ]);
  const first = 'const redis = createClient({';
  const last = 'redis.connect().catch(() => {});';
  assert.deepEqual(linesBetween(portalText, first, last), linesBetween(readmeText, first, last));
});
