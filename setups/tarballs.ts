import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { scratchFolder } from './scratch.js';

export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

export interface Tarball {
  /** `@form-embed/…` */
  name: string;
  path: string;
  /** Bytes of the .tgz, as the registry would store it. */
  size: number;
  /** Bytes of the files it holds, unpacked. */
  unpackedSize: number;
}

/** Packs every workspace package once, from its built `dist` (`npm run build` runs first). */
export async function packAll(): Promise<Tarball[]> {
  const destination = await scratchFolder('form-embed-tarballs-');
  const { stdout } = await promisify(execFile)(
    'npm',
    ['pack', '--workspaces', '--json', '--pack-destination', destination, '--loglevel=error'],
    { cwd: repositoryRoot, maxBuffer: 16 * 1024 * 1024 },
  );
  const packed = JSON.parse(stdout) as {
    name: string;
    filename: string;
    size: number;
    unpackedSize: number;
  }[];
  return packed.map(({ name, filename, size, unpackedSize }) => ({
    name,
    path: join(destination, filename),
    size,
    unpackedSize,
  }));
}
