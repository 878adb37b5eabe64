/** The command line of `form-embed-sandbox`, parsed into options or one line naming the problem. */
import { parseArgs } from 'node:util';
import { isWebOrigin, sharedPort } from './options.js';

export const usage = `Usage: form-embed-sandbox [--json] [--control] [--control-origin ORIGIN]... [--port N]
                          [--forms-port N] [--core-forms-port N] [--mints-per-minute N]
  --json                   print one JSON line {baseUrl, formsOrigin, coreFormsOrigin, apiKey}
  --control                serve the HTTP control API under /__sandbox/control/
  --control-origin ORIGIN  a web origin allowed to call the control API from a browser (CORS);
                           repeat for several, e.g. --control-origin http://localhost:5173
  --port N                 the API port (default: any free port)
  --forms-port N           the designer forms embed origin's port (default: any free port);
                           fixed ports keep a page's Content-Security-Policy valid across starts
  --core-forms-port N      the Core forms embed origin's port (default: any free port)
  --mints-per-minute N     the key's mint limit, a minute and its burst (default: 120, the
                           contract's); raise it to load-test a portal
`;

export interface CliArgs {
  help: boolean;
  json: boolean;
  control: boolean;
  controlOrigins: string[];
  port: number;
  formsPort: number;
  coreFormsPort: number;
  /** The mint limit's rate and burst; undefined: the contract's. */
  mintsPerMinute: number | undefined;
}

export type CliParse = { ok: true; args: CliArgs } | { ok: false; problem: string };

/** Node's parseArgs error codes, in our words (its own messages suggest `--` tricks). */
function describeParseError(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const option = /'(-[^' ]+)/.exec(message ?? '')?.[1];
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return `unexpected argument ${/'([^']*)'/.exec(message ?? '')?.[1] ?? ''}`.trimEnd();
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /does not take an argument/.test(message ?? '')
        ? `${option} takes no value`
        : `${option} needs a value`;
    default:
      return message ?? String(error);
  }
}

export function parseCliArgs(argv: string[]): CliParse {
  let values: ReturnType<typeof parse>['values'];
  try {
    values = parse(argv).values;
  } catch (error) {
    return { ok: false, problem: describeParseError(error) };
  }
  const ports: Record<'port' | 'forms-port' | 'core-forms-port', number> = {
    port: 0,
    'forms-port': 0,
    'core-forms-port': 0,
  };
  for (const name of Object.keys(ports) as (keyof typeof ports)[]) {
    const value = values[name];
    if (value === undefined) continue;
    if (!/^\d+$/.test(value) || Number(value) > 65535) {
      return {
        ok: false,
        problem: `--${name} must be a port number from 0 to 65535, not "${value}"`,
      };
    }
    ports[name] = Number(value);
  }
  const shared = sharedPort(ports);
  if (shared) {
    return {
      ok: false,
      problem: `--${shared[0]} and --${shared[1]} both name port ${ports[shared[0]]}: each listener needs a port of its own`,
    };
  }
  const controlOrigins = values['control-origin'] ?? [];
  if (controlOrigins.length > 0 && !values.control) {
    return { ok: false, problem: '--control-origin needs --control' };
  }
  const notOrigin = controlOrigins.find((origin) => !isWebOrigin(origin));
  if (notOrigin !== undefined) {
    return {
      ok: false,
      problem: `--control-origin must be an origin such as http://localhost:5173, not "${notOrigin}"`,
    };
  }
  const mints = values['mints-per-minute'];
  if (mints !== undefined && !/^[1-9]\d{0,8}$/.test(mints)) {
    return {
      ok: false,
      problem: `--mints-per-minute must be a whole number from 1 to 999999999, not "${mints}"`,
    };
  }
  const mintsPerMinute = mints === undefined ? undefined : Number(mints);
  const { port, 'forms-port': formsPort, 'core-forms-port': coreFormsPort } = ports;
  const args = { help: values.help, json: values.json, control: values.control, port };
  return { ok: true, args: { ...args, formsPort, coreFormsPort, controlOrigins, mintsPerMinute } };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      control: { type: 'boolean', default: false },
      'control-origin': { type: 'string', multiple: true },
      port: { type: 'string' },
      'forms-port': { type: 'string' },
      'core-forms-port': { type: 'string' },
      'mints-per-minute': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
