#!/usr/bin/env node
/**
 * `form-embed-sandbox [--json] [--control] [--port N]`: starts the sandbox and keeps serving
 * until SIGINT or SIGTERM. With `--json` it prints exactly one line,
 * `{"baseUrl","formsOrigin","coreFormsOrigin","apiKey"}`, for scripts to read.
 */
import { parseArgs } from 'node:util';
import { startSandbox } from './start-sandbox.js';

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    control: { type: 'boolean', default: false },
    port: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  process.stdout.write(
    'Usage: form-embed-sandbox [--json] [--control] [--port N]\n' +
      '  --json     print one JSON line {baseUrl, formsOrigin, coreFormsOrigin, apiKey}\n' +
      '  --control  serve the HTTP control API under /__sandbox/control/\n' +
      '  --port N   the API port (default: any free port)\n',
  );
  process.exit(0);
}

const port = values.port === undefined ? 0 : Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  process.stderr.write('form-embed-sandbox: --port must be a port number\n');
  process.exit(2);
}

// Handlers first, so a signal that arrives as soon as the addresses are printed (or during
// start-up) still closes the listeners cleanly.
let closing = false;
let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
const stop = () => {
  if (closing) return;
  closing = true;
  (sandbox ? sandbox.close() : Promise.resolve()).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

sandbox = await startSandbox({ port, controlApi: values.control });
if (closing) await sandbox.close();
const { baseUrl, formsOrigin, coreFormsOrigin, apiKey } = sandbox;
if (values.json) {
  process.stdout.write(`${JSON.stringify({ baseUrl, formsOrigin, coreFormsOrigin, apiKey })}\n`);
} else {
  process.stdout.write(
    [
      'form-embed sandbox is running (plain http on 127.0.0.1; the real service uses https)',
      `  API base URL:       ${baseUrl}`,
      `  Forms origin:       ${formsOrigin}`,
      `  Core forms origin:  ${coreFormsOrigin}`,
      `  API key:            ${apiKey}`,
      values.control ? `  Control API:        ${baseUrl}/__sandbox/control/` : '',
      'Press Ctrl-C to stop.',
      '',
    ]
      .filter((line, i, all) => line !== '' || i === all.length - 1)
      .join('\n'),
  );
}
