import { access, readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a package's manifest must say for a partner's `npm install` (docs in the root README). */
interface Manifest {
  name: string;
  version: string;
  license?: string;
  engines?: { node?: string };
  repository?: { url?: string; directory?: string };
  homepage?: string;
  bugs?: { url?: string };
  keywords?: string[];
  files?: string[];
  sideEffects?: boolean | string[];
  unpkg?: string;
  jsdelivr?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

/**
 * The problems of an unpacked tarball (`dir` holds its `package.json`) as a partner meets them:
 * a LICENSE, README and CHANGELOG in it; license, engines, repository with its directory,
 * homepage, bugs, keywords and files; side effects only in the element's defining entries;
 * express a peer for Express 4 and 5; the other packages of the fixed group depended on at this
 * package's own version, as they are released together; nothing in dist that no source in src
 * builds. Empty when it has none.
 */
export async function manifestProblems(dir: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as Manifest;
  const problems: string[] = [];
  for (const file of ['LICENSE', 'README.md', 'CHANGELOG.md']) {
    await access(join(dir, file)).catch(() => problems.push(`no ${file}`));
  }
  const folder = manifest.name.replace('@form-embed/', 'packages/');
  const expect = (ok: boolean, problem: string) => ok || problems.push(problem);
  expect(manifest.license === 'MIT', `license ${manifest.license}`);
  // Node runs require(esm), which the .cjs entries need, unflagged from 20.19 and 22.12.
  const engines = manifest.engines?.node;
  expect(engines === '^20.19.0 || >=22.12.0', `engines.node ${engines}`);
  expect(Boolean(manifest.repository?.url), 'no repository.url');
  expect(manifest.repository?.directory === folder, `repository.directory is not ${folder}`);
  expect(Boolean(manifest.homepage), 'no homepage');
  expect(Boolean(manifest.bugs?.url), 'no bugs.url');
  expect((manifest.keywords?.length ?? 0) > 0, 'no keywords');
  expect((manifest.files?.length ?? 0) > 0, 'no files');
  if (manifest.name === '@form-embed/element') {
    const sideEffects = Array.isArray(manifest.sideEffects) ? manifest.sideEffects : [];
    expect(sideEffects.includes('./dist/define.js'), 'sideEffects does not list ./dist/define.js');
    expect(!sideEffects.includes('./dist/index.js'), 'sideEffects lists ./dist/index.js');
    // A CDN's address of the bare package (cdn.jsdelivr.net/npm/@form-embed/element) serves the
    // file these name, else main: CommonJS, of no use in a browser.
    for (const cdn of ['unpkg', 'jsdelivr'] as const) {
      const file = manifest[cdn];
      expect(file === './dist/form-embed.bundle.js', `${cdn} ${file}`);
      if (file) await access(join(dir, file)).catch(() => problems.push(`no ${file} (${cdn})`));
    }
  } else {
    expect(manifest.sideEffects === false, `sideEffects ${manifest.sideEffects}`);
  }
  if (manifest.name === '@form-embed/express') {
    const express = manifest.peerDependencies?.express;
    expect(express === '^4.21 || ^5', `peerDependencies.express ${express}`);
    expect(!manifest.dependencies?.express, 'express is a dependency, not only a peer');
  }
  // A built file whose source is gone was left in dist by an earlier build, and would ship.
  // The .d.cts twins for TypeScript before 5.3 (scripts/require-entries.mjs), in dist/ts5.2, have
  // their sources where the others' are.
  for (const file of await readdir(join(dir, 'dist'), { recursive: true })) {
    const stem = file
      .replace(/^ts5\.2\//, '')
      .match(/^(.+?)(?:\.d)?\.(?:js|cjs|ts|cts)(?:\.map)?$/)?.[1];
    // The no-bundler files are built whole, from no source of their own.
    if (stem === undefined || stem.endsWith('.bundle')) continue;
    await access(join(dir, 'src', `${stem}.ts`)).catch(() =>
      problems.push(`dist/${file} has no src/${stem}.ts: an earlier build left it`),
    );
  }
  for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
    if (!dependency.startsWith('@form-embed/')) continue;
    expect(range === manifest.version, `${dependency} ${range}, not ${manifest.version}`);
  }
  return problems;
}
