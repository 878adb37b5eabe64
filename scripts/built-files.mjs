// Run by each package's `prepack`, in the package's folder, so that `npm pack` and `npm publish`
// refuse a package whose `dist` was never built, or was built before its sources last changed:
// npm would pack it all the same, and a version once published cannot be published again.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REBUILD = 'run npm run build at the repository root';

/** The problems of the package in `dir`: empty when every file its manifest names is built and fresh. */
export async function builtFileProblems(dir) {
  const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'));
  const problems = [];
  const missing = new Set();
  for (const [path, where] of namedFiles(manifest)) {
    if (missing.has(path) || (await exists(dir, path))) continue;
    missing.add(path);
    const what = path.includes('*') ? `file for ${path}` : path;
    problems.push(`no ${what} (${where}): ${REBUILD}`);
  }
  const sources = (await readdir(join(dir, 'src'), { recursive: true }))
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))
    .sort();
  for (const source of sources) {
    const built = `dist/${source.replace(/\.ts$/, '.js')}`;
    const [from, to] = await Promise.all([mtime(dir, `src/${source}`), mtime(dir, built)]);
    if (to === undefined) problems.push(`no ${built} built from src/${source}: ${REBUILD}`);
    else if (from > to) problems.push(`src/${source} changed after ${built} was built: ${REBUILD}`);
  }
  return problems;
}

/** Each file the manifest points a partner's tools to, with where it names it (first). */
function namedFiles(manifest) {
  const named = [];
  for (const field of ['main', 'types', 'customElements']) {
    if (typeof manifest[field] === 'string') named.push([manifest[field], field]);
  }
  const bin = typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : manifest.bin;
  for (const [name, path] of Object.entries(bin ?? {})) named.push([path, `bin.${name}`]);
  for (const [range, map] of Object.entries(manifest.typesVersions ?? {})) {
    for (const [entry, paths] of Object.entries(map)) {
      for (const path of paths) named.push([path, `typesVersions.${range}.${entry}`]);
    }
  }
  const walk = (target, where) => {
    if (typeof target === 'string') named.push([target, where]);
    else for (const [key, value] of Object.entries(target ?? {})) walk(value, `${where}.${key}`);
  };
  for (const [entry, target] of Object.entries(manifest.exports ?? {})) {
    walk(target, `exports["${entry}"]`);
  }
  return named;
}

/** Whether `path` exists in `dir`; a pattern (`./dist/locales/*.js`) when it matches a file. */
async function exists(dir, path) {
  if (!path.includes('*')) return (await mtime(dir, path)) !== undefined;
  const [before, after] = join(dir, path).split('*');
  const folder = before.slice(0, before.lastIndexOf('/'));
  const files = await readdir(folder).catch(() => []);
  return files.some((file) => {
    const full = `${folder}/${file}`;
    return (
      full.startsWith(before) && full.endsWith(after) && full.length > before.length + after.length
    );
  });
}

async function mtime(dir, path) {
  return (await stat(join(dir, path)).catch(() => undefined))?.mtimeMs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const problems = await builtFileProblems(process.cwd());
  if (problems.length > 0) {
    console.error(`Not packed: the build is missing or stale.\n${problems.join('\n')}`);
    process.exit(1);
  }
}
