import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type MountedMiddleware, openForm } from './helpers/harness.js';
import { instancesOnOneRedis } from './helpers/redis-instances.js';

const { watch, start: instance } = instancesOnOneRedis('instances:');

/** Mints for `session`, the `index`-th request on the `index`-th instance in turn. */
async function roundRobin(instances: MountedMiddleware[], session: string, count: number) {
  const statuses: string[] = [];
  for (let index = 0; index < count; index++) {
    const portal = instances[index % instances.length] as MountedMiddleware;
    const answer = await portal.mint(openForm, { session });
    statuses.push(`${index % instances.length}:${answer.status}`);
  }
  return statuses;
}

describe('several portal instances, one Redis, one limit.prefix', () => {
  test("a user's mints spread over three instances share one count: each instance refuses the 11th, having seen the other two's spends", async () => {
    const instances = [await instance(), await instance(), await instance()];
    try {
      const statuses = await roundRobin(instances, 'adele', 10);
      assert.ok(
        statuses.every((status) => status.endsWith(':200')),
        statuses.join(' '),
      );
      for (const portal of instances) {
        const refused = await portal.mint(openForm, { session: 'adele' });
        assert.equal(refused.status, 429, refused.text);
      }
      assert.deepEqual(
        watch.logLines.filter((line) => line.level === 'error'),
        [],
        'no instance logged an outage or a shared prefix',
      );
    } finally {
      for (const portal of instances) await portal.close();
    }
  });

  test("instances whose limit.mints differ (the README's One number per limit) compare one shared count with their own numbers: the lower refuses once the count passes it, and its refusals count for all", async () => {
    // As in a rolling deploy that lowers limit.mints from 10 to 5: both kinds serve at once.
    const instances = [
      await instance({ limit: { mints: 10 } }),
      await instance({ limit: { mints: 5 } }),
    ];
    try {
      assert.deepEqual(await roundRobin(instances, 'alex', 12), [
        '0:200',
        '1:200',
        '0:200',
        '1:200',
        '0:200',
        // The count is 6 here: over 5, and the refusal is counted too.
        '1:429',
        '0:200',
        '1:429',
        '0:200',
        '1:429',
        // 11 counted, the refusals of the 5 included: the 10 refuses too. 7 mints in all.
        '0:429',
        '1:429',
      ]);
    } finally {
      for (const portal of instances) await portal.close();
    }
  });
});
