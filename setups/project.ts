import { execFile } from 'node:child_process';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scratchFolder } from './scratch.js';
import type { Tarball } from './tarballs.js';

/** A setup copied to a fresh folder outside the repository, its packages installed. */
export interface Project {
  name: string;
  dir: string;
  /**
   * Runs a command in the folder, with `env` added to its environment; a failure names the setup,
   * the command and its output.
   */
  run(
    command: string,
    args: string[],
    options?: { expectFailure?: boolean; env?: Record<string, string> },
  ): Promise<string>;
  remove(): Promise<void>;
}

/**
 * Copies `setups/<name>` to a temp folder, points each `"packed"` dependency at its tarball
 * and installs: only the tarballs and public packages, from the one npm cache all setups share.
 */
export async function installProject(name: string, tarballs: Tarball[]): Promise<Project> {
  const dir = await scratchFolder(`form-embed-setup-${name}-`);
  await cp(fileURLToPath(new URL(name, import.meta.url)), dir, { recursive: true });
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  for (const field of ['dependencies', 'devDependencies'] as const) {
    for (const [dependency, range] of Object.entries<string>(manifest[field] ?? {})) {
      if (range !== 'packed') continue;
      const tarball = tarballs.find((candidate) => candidate.name === dependency);
      if (!tarball) throw new Error(`setup ${name}: no tarball for ${dependency}`);
      manifest[field][dependency] = `file:${tarball.path}`;
    }
  }
  await writeFile(manifestPath, JSON.stringify(manifest, null, 2));
  const project: Project = {
    name,
    dir,
    run: (command, args, options) =>
      run(name, dir, command, args, options?.expectFailure, options?.env),
    remove: () => rm(dir, { recursive: true, force: true }),
  };
  try {
    await project.run('npm', [
      'install',
      '--prefer-offline',
      '--no-audit',
      '--no-fund',
      '--no-package-lock',
      '--ignore-scripts',
      '--loglevel=error',
    ]);
  } catch (error) {
    // The folder may be in memory (scratch.ts): a failed install's half is not kept there.
    if (!process.env.KEEP_SETUPS) await project.remove();
    throw error;
  }
  return project;
}

function run(
  setup: string,
  cwd: string,
  command: string,
  args: string[],
  expectFailure = false,
  env: Record<string, string> = {},
): Promise<string> {
  const options = { cwd, env: { ...process.env, ...env }, maxBuffer: 16 * 1024 * 1024 };
  return new Promise((resolve, reject) => {
    execFile(command, args, options, (error, stdout, stderr) => {
      const output = `${stdout}${stderr}`;
      if (Boolean(error) === expectFailure) resolve(output);
      else {
        const outcome = expectFailure ? 'succeeded but must fail' : 'failed';
        reject(
          new Error(`setup ${setup}: \`${command} ${args.join(' ')}\` ${outcome}:\n${output}`),
        );
      }
    });
  });
}
