#!/usr/bin/env node
/**
 * `form-embed-sandbox [--json] [--control] [--control-origin ORIGIN]... [--port N] [--forms-port N]
 * [--core-forms-port N] [--mints-per-minute N]`: starts the sandbox and keeps serving until SIGINT
 * or SIGTERM. With `--json` it prints exactly one line,
 * `{"baseUrl","formsOrigin","coreFormsOrigin","apiKey"}`, for scripts to read. A bad command line
 * (exit 2) or a failed start (exit 1) prints one line naming the problem, never a stack.
 */
import { type CliArgs, parseCliArgs, usage } from './cli-args.js';
import { CONTROL_PATH } from './control-path.js';
import { type Sandbox, startSandbox } from './start-sandbox.js';

function fail(problem: string, exitCode: number): never {
  process.stderr.write(`form-embed-sandbox: ${problem}\n`);
  process.exit(exitCode);
}

/** One line for a start that failed: the port in use, an option refused, anything else. */
function describeStartError(error: unknown, args: CliArgs): string {
  const { code, message } = error as NodeJS.ErrnoException;
  const asked = [args.port, args.formsPort, args.coreFormsPort].filter(Boolean).join(', ');
  if (code === 'EADDRINUSE') {
    return `a port asked for is in use (${asked}); choose others, or leave the port options out for free ones`;
  }
  if (code === 'EACCES') return `no permission to listen on a port asked for (${asked})`;
  return `could not start: ${(message ?? String(error)).replace(/^startSandbox: /, '')}`;
}

function describeSandbox(sandbox: Sandbox, args: CliArgs): string {
  const { baseUrl, formsOrigin, coreFormsOrigin, apiKey } = sandbox;
  if (args.json) return `${JSON.stringify({ baseUrl, formsOrigin, coreFormsOrigin, apiKey })}\n`;
  return [
    'form-embed sandbox is running (plain http on 127.0.0.1; the real service uses https)',
    `  API base URL:       ${baseUrl}`,
    `  Forms origin:       ${formsOrigin}`,
    `  Core forms origin:  ${coreFormsOrigin}`,
    `  API key:            ${apiKey}`,
    ...(args.control ? [`  Control API:        ${baseUrl}${CONTROL_PATH}/`] : []),
    'Press Ctrl-C to stop.',
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const parsed = parseCliArgs(process.argv.slice(2));
  if (!parsed.ok) fail(`${parsed.problem} (--help lists the options)`, 2);
  const { args } = parsed;
  if (args.help) {
    process.stdout.write(usage);
    return;
  }
  // Handlers first: a signal during start-up ends the process at once (its end frees the ports
  // bound so far); once started, the listeners are closed first.
  let closing = false;
  let sandbox: Sandbox | undefined;
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
  const options = {
    port: args.port,
    formsPort: args.formsPort,
    coreFormsPort: args.coreFormsPort,
    controlApi: args.control,
    controlOrigins: args.controlOrigins,
    ...(args.mintsPerMinute === undefined
      ? {}
      : { limits: { mints: { perMinute: args.mintsPerMinute, burst: args.mintsPerMinute } } }),
  };
  sandbox = await startSandbox(options).catch((error) => fail(describeStartError(error, args), 1));
  process.stdout.write(describeSandbox(sandbox, args));
}

await main();
