// `npm start`: the demo portal on the sandbox, or on a real service when
// FORM_EMBED_BASE_URL and FORM_EMBED_API_KEY are set.
import { startDemo } from './server.js';

const baseUrl = process.env.FORM_EMBED_BASE_URL;
const apiKey = process.env.FORM_EMBED_API_KEY;
if (Boolean(baseUrl) !== Boolean(apiKey)) {
  console.error('Set both FORM_EMBED_BASE_URL and FORM_EMBED_API_KEY, or neither for the sandbox.');
  process.exit(2);
}

const demo = await startDemo({
  port: process.env.PORT ? Number(process.env.PORT) : 5173,
  service:
    baseUrl && apiKey
      ? {
          baseUrl,
          apiKey,
          user: process.env.FORM_EMBED_USER ? JSON.parse(process.env.FORM_EMBED_USER) : undefined,
        }
      : undefined,
});

if (demo.sandbox) {
  console.log(`Sandbox service  ${demo.sandbox.baseUrl}`);
  console.log(
    `Embed origins    ${demo.sandbox.formsOrigin} (forms), ${demo.sandbox.coreFormsOrigin} (Core forms)`,
  );
} else {
  console.log(`Real service     ${baseUrl} (API key from FORM_EMBED_API_KEY, not shown)`);
}
console.log(`\nform-embed demo  ${demo.url}\n\nCtrl-C stops everything.`);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) process.exit(1);
    closing = true;
    await demo.close();
    process.exit(0);
  });
}
