import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { defaultServicePaths, OrganisationSchema } from '@form-embed/protocol';
import { build } from 'esbuild';
import { portBelowEphemeralRange } from '../../../scripts/ports.mjs';
import { parseCliArgs, usage } from '../src/cli-args.js';
import { fixtureIds, fixtureKeys } from '../src/index.js';

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url));

/**
 * The CLI's sources bundled once into one JavaScript file, so each case starts a bare `node` as the
 * published bin does, instead of a second or more of tsx start-up per process.
 */
const bundled = (async () => {
  const dir = await mkdtemp(join(tmpdir(), 'form-embed-sandbox-cli-'));
  const outfile = join(dir, 'cli.mjs');
  await build({
    entryPoints: [cli],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    conditions: ['@form-embed/source'],
    // Express and its dependencies are CommonJS: their require() of Node's modules needs one.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
    logLevel: 'silent',
  });
  return { dir, outfile };
})();
after(async () => rm((await bundled).dir, { recursive: true, force: true }));

async function startCli(args: string[]) {
  const child = spawn(process.execPath, [(await bundled).outfile, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return { child, nextLine: async () => (await lines.next()).value as string };
}

describe('form-embed-sandbox CLI', () => {
  test('form-embed-sandbox --json prints exactly one JSON line, serves, and exits cleanly on SIGTERM', async () => {
    const { child, nextLine } = await startCli(['--json', '--control']);
    try {
      const line = await nextLine();
      const printed = JSON.parse(line) as Record<string, string>;
      assert.deepEqual(Object.keys(printed), [
        'baseUrl',
        'formsOrigin',
        'coreFormsOrigin',
        'apiKey',
      ]);
      assert.equal(printed.apiKey, fixtureKeys.primary);
      const me = await fetch(`${printed.baseUrl}${defaultServicePaths.me}`, {
        headers: { authorization: `Bearer ${printed.apiKey}` },
      });
      const org = OrganisationSchema.parse(await me.json());
      assert.equal(org.formsOrigin, printed.formsOrigin);
      const control = await fetch(`${printed.baseUrl}/__sandbox/control/stats`, { method: 'POST' });
      assert.equal(control.status, 200, '--control enables the control API');
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  test('--forms-port and --core-forms-port fix the embed origins, so a page CSP holds across starts', async () => {
    // Below the ports the kernel hands out: one found free and let go could be taken before the
    // CLI binds it.
    const formsPort = await portBelowEphemeralRange();
    let coreFormsPort = formsPort;
    while (coreFormsPort === formsPort) coreFormsPort = await portBelowEphemeralRange();
    const { child, nextLine } = await startCli([
      '--json',
      '--forms-port',
      String(formsPort),
      '--core-forms-port',
      String(coreFormsPort),
    ]);
    try {
      const printed = JSON.parse(await nextLine()) as Record<string, string>;
      assert.equal(printed.formsOrigin, `http://127.0.0.1:${formsPort}`);
      assert.equal(printed.coreFormsOrigin, `http://127.0.0.1:${coreFormsPort}`);
    } finally {
      child.kill('SIGTERM');
    }
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  // A load test of a portal met the contract's 120 a minute, which only startSandbox could raise.
  test('--mints-per-minute sets the key’s mint limit: at 2, the third mint in a minute is rate_limited', async () => {
    const { child, nextLine } = await startCli(['--json', '--mints-per-minute', '2']);
    try {
      const { baseUrl, apiKey } = JSON.parse(await nextLine()) as Record<string, string>;
      const statuses = [];
      for (let mint = 0; mint < 3; mint++) {
        const answer = await fetch(`${baseUrl}/api/v1/forms/${fixtureIds.forms.open}/session`, {
          method: 'POST',
          headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
          body: '{}',
        });
        statuses.push(answer.status);
      }
      assert.deepEqual(statuses, [200, 200, 429]);
    } finally {
      child.kill('SIGTERM');
    }
    await once(child, 'exit');
  });

  test('form-embed-sandbox without --json prints the addresses and key readably, and stops on SIGINT', async () => {
    const { child, nextLine } = await startCli([]);
    try {
      const lines = [];
      for (let i = 0; i < 5; i++) lines.push(await nextLine());
      const text = lines.join('\n');
      assert.match(text, /API base URL: +http:\/\/127\.0\.0\.1:\d+/);
      assert.match(text, /Forms origin: +http:\/\/127\.0\.0\.1:\d+/);
      assert.match(text, /Core forms origin: +http:\/\/127\.0\.0\.1:\d+/);
      assert.ok(text.includes(fixtureKeys.primary));
    } finally {
      child.kill('SIGINT');
    }
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  });

  /** Runs the CLI to its end; resolves with its exit code and what it printed. */
  async function runCli(args: string[]) {
    const { child } = await startCli(args);
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    const [code] = await once(child, 'exit');
    return { code, stderr, stdout };
  }

  describe('form-embed-sandbox: a bad command line or a failed start is one clear line', {
    concurrency: true,
  }, () => {
    const cases: [string[], string][] = [
      [['--bogus'], 'unknown option --bogus (--help lists the options)'],
      [['--port'], '--port needs a value (--help lists the options)'],
      [
        ['--port', 'abc'],
        '--port must be a port number from 0 to 65535, not "abc" (--help lists the options)',
      ],
      [
        ['--control', '--control-origin', 'localhost:5173'],
        '--control-origin must be an origin such as http://localhost:5173, not "localhost:5173" (--help lists the options)',
      ],
    ];
    for (const [args, problem] of cases) {
      test(`${args.join(' ')}: exits 2 printing one line, no stack`, async () => {
        const { code, stderr, stdout } = await runCli(args);
        assert.equal(stderr, `form-embed-sandbox: ${problem}\n`);
        assert.equal(stdout, '');
        assert.equal(code, 2);
      });
    }

    test('a port in use: exits 1 printing one line naming the port, no stack', async (t) => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      t.after(() => new Promise((resolve) => taken.close(resolve)));
      const { port } = taken.address() as AddressInfo;
      const { code, stderr } = await runCli(['--port', String(port)]);
      assert.equal(
        stderr,
        `form-embed-sandbox: a port asked for is in use (${port}); choose others, or leave the port options out for free ones\n`,
      );
      assert.equal(code, 1);
    });
  });

  describe('parseCliArgs', () => {
    const problemOf = (argv: string[]) => {
      const parsed = parseCliArgs(argv);
      return parsed.ok ? undefined : parsed.problem;
    };

    test('names the problem of each bad command line', () => {
      assert.equal(
        problemOf(['--port', '70000']),
        '--port must be a port number from 0 to 65535, not "70000"',
      );
      assert.equal(problemOf(['--port', '-1']), '--port needs a value');
      assert.equal(problemOf(['--port=']), '--port must be a port number from 0 to 65535, not ""');
      assert.equal(
        problemOf(['--forms-port', 'x']),
        '--forms-port must be a port number from 0 to 65535, not "x"',
      );
      assert.equal(problemOf(['--json=yes']), '--json takes no value');
      // Both were "a port asked for is in use (4011, 4011)" at start, exit 1, as if another
      // process held it.
      assert.equal(
        problemOf(['--forms-port', '4011', '--core-forms-port', '4011']),
        '--forms-port and --core-forms-port both name port 4011: each listener needs a port of its own',
      );
      assert.equal(
        problemOf(['--port', '4010', '--core-forms-port', '4010']),
        '--port and --core-forms-port both name port 4010: each listener needs a port of its own',
      );
      assert.equal(problemOf(['--port', '0', '--forms-port', '0']), undefined);
      assert.equal(problemOf(['-x']), 'unknown option -x');
      assert.equal(problemOf(['serve']), 'unexpected argument serve');
      assert.equal(
        problemOf(['--control-origin', 'http://localhost:5173']),
        '--control-origin needs --control',
      );
      for (const mints of ['0', '-5', '1.5', 'many', '1000000000']) {
        assert.equal(
          problemOf([`--mints-per-minute=${mints}`]),
          `--mints-per-minute must be a whole number from 1 to 999999999, not "${mints}"`,
        );
      }
    });

    test('a port is a number from 0 to 65535: 65535 is read, 65536 refused', () => {
      for (const name of ['port', 'forms-port', 'core-forms-port']) {
        assert.equal(problemOf([`--${name}`, '65535']), undefined, name);
        assert.equal(
          problemOf([`--${name}`, '65536']),
          `--${name} must be a port number from 0 to 65535, not "65536"`,
        );
      }
    });

    test('reads every option, repeated --control-origin included', () => {
      assert.deepEqual(
        parseCliArgs([
          '--json',
          '--control',
          '--port',
          '4010',
          '--control-origin',
          'http://localhost:5173',
          '--control-origin=http://qa.localhost:8080',
          '--forms-port',
          '4011',
          '--core-forms-port=4012',
          '--mints-per-minute',
          '500',
        ]),
        {
          ok: true,
          args: {
            help: false,
            json: true,
            control: true,
            port: 4010,
            formsPort: 4011,
            coreFormsPort: 4012,
            controlOrigins: ['http://localhost:5173', 'http://qa.localhost:8080'],
            mintsPerMinute: 500,
          },
        },
      );
      assert.match(usage, /--control-origin ORIGIN/);
    });
  });
});
