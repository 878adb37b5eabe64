// Run first by the root build: empties each package's dist, so that a module whose source was
// removed or renamed is not left there by an earlier build and packed with the rest.
import { readdir, rm } from 'node:fs/promises';

const packages = new URL('../packages/', import.meta.url);
for (const name of await readdir(packages)) {
  await rm(new URL(`${name}/dist`, packages), { recursive: true, force: true });
}
