import { startRedis } from '../packages/express/test/helpers/redis-server.js';
import type { PortalInfo, SandboxInfo } from './bench-setup.js';
import { startChild } from './child-process.js';

/**
 * The bench's servers, each in a process of its own: the sandbox, a `redis-server` on a free port
 * and the bench portal minting through the sandbox. `stop` ends all three, the portal first.
 */
export async function startBenchServers() {
  const stops: (() => Promise<unknown>)[] = [];
  const stop = async () => {
    for (const stopOne of stops.reverse()) await stopOne();
  };
  try {
    const sandbox = await startChild<SandboxInfo>(new URL('./sandbox-process.ts', import.meta.url));
    stops.push(sandbox.stop);
    const redis = await startRedis();
    stops.push(redis.kill);
    const portal = await startChild<PortalInfo>(new URL('./portal-process.ts', import.meta.url), {
      BENCH_BASE_URL: sandbox.info.baseUrl,
      BENCH_API_KEY: sandbox.info.apiKey,
      BENCH_REDIS_URL: redis.url,
    });
    stops.push(portal.stop);
    return { sandbox: sandbox.info, portal: portal.info, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
