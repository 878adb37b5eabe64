// `npm start`: the demo portal on the sandbox, or on a real service when
// FORM_EMBED_BASE_URL and FORM_EMBED_API_KEY are set.
import { FormSessionUserSchema } from '@form-embed/protocol';
import type { LimitStore } from './redis-store.js';

const baseUrl = process.env.FORM_EMBED_BASE_URL;
const apiKey = process.env.FORM_EMBED_API_KEY;
if (Boolean(baseUrl) !== Boolean(apiKey)) {
  console.error('Set both FORM_EMBED_BASE_URL and FORM_EMBED_API_KEY, or neither for the sandbox.');
  process.exit(2);
}

/** FORM_EMBED_USER: the FormSessionRequest `user` every mint is made for, as JSON. */
function userFromEnvironment() {
  const text = process.env.FORM_EMBED_USER;
  if (!text) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = Symbol('not JSON');
  }
  const user = FormSessionUserSchema.strict().safeParse(json);
  if (!user.success) {
    console.error(
      'FORM_EMBED_USER must be a JSON object with microsoftTenantId, clientId or userIdentifier strings,',
      'for example {"microsoftTenantId":"…","userIdentifier":"someone@example.com"}.',
    );
    process.exit(2);
  }
  return user.data;
}

const port = process.env.PORT ? Number(process.env.PORT) : 5173;
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a port number from 0 to 65535, not ${process.env.PORT}.`);
  process.exit(2);
}

// Loaded once the environment is known good, so that a mistake in it is told at once.
const [{ redisLimitStore }, { startDemo }] = await Promise.all([
  import('./redis-store.js'),
  import('./server.js'),
]);

const redisUrl = process.env.FORM_EMBED_REDIS_URL;
const limitStore: LimitStore | undefined = redisUrl
  ? await redisLimitStore(redisUrl).catch((error: Error) => {
      console.error(`FORM_EMBED_REDIS_URL: Redis could not be reached (${error.message}).`);
      process.exit(2);
    })
  : undefined;

const demo = await startDemo({
  port,
  limitStore: limitStore?.store,
  // A tester reminting by hand outruns the middleware's default of 30 mints a minute per user.
  limits: { mints: 60 },
  service: baseUrl && apiKey ? { baseUrl, apiKey, user: userFromEnvironment() } : undefined,
}).catch((error: NodeJS.ErrnoException) => {
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${port} is in use: set PORT to another one, e.g. PORT=5174 npm start.`
      : `The demo could not start: ${error.message}`,
  );
  process.exit(1);
});

if (demo.sandbox) {
  console.log(`Sandbox service  ${demo.sandbox.baseUrl}`);
  console.log(
    `Embed origins    ${demo.sandbox.formsOrigin} (forms), ${demo.sandbox.coreFormsOrigin} (Core forms)`,
  );
} else {
  console.log(`Real service     ${baseUrl} (API key from FORM_EMBED_API_KEY, not shown)`);
}
console.log(
  limitStore
    ? `Per-user limits  in Redis at ${limitStore.shownUrl} (FORM_EMBED_REDIS_URL)`
    : 'Per-user limits  in memory (set FORM_EMBED_REDIS_URL to keep them in Redis)',
);
console.log(`\nform-embed demo  ${demo.url}\n\nCtrl-C stops everything.`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) process.exit(1);
    closing = true;
    await demo.close();
    await limitStore?.close();
    process.exit(0);
  });
}
