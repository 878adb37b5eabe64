import { accessSync, constants, readFileSync, statfsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The setups' folders at their largest, about 1 GB, twice over. */
const ROOM_NEEDED = 2 * 1024 ** 3;

/**
 * Where the setups unpack and install: Linux's memory file system when it is there, writable, lets
 * programs run from it (esbuild's, TypeScript 7's and Node's binaries do), has the room and the
 * machine has three times that free; else the system's temporary folder. Installing the projects
 * onto this machine's disk spent half of the lane's CPU in the kernel: 165 CPU-seconds for the
 * lane against 130 in /dev/shm. (Docker gives /dev/shm 64 MB unless told otherwise, and some
 * systems mount it noexec.)
 */
function scratchRoot(): string {
  const memory = '/dev/shm';
  try {
    accessSync(memory, constants.W_OK);
    const mount = readFileSync('/proc/mounts', 'utf8')
      .split('\n')
      .findLast((line) => line.split(' ')[1] === memory);
    const { bavail, bsize } = statfsSync(memory);
    const runnable = mount !== undefined && !mount.split(' ')[3]?.split(',').includes('noexec');
    // A tmpfs's own limit is not the memory free: the browsers and servers of all three lanes
    // need theirs beside it.
    const available = /^MemAvailable:\s+(\d+) kB$/m.exec(readFileSync('/proc/meminfo', 'utf8'));
    const memoryFree = Number(available?.[1] ?? 0) * 1024;
    if (runnable && bavail * bsize >= ROOM_NEEDED && memoryFree >= 3 * ROOM_NEEDED) return memory;
  } catch {
    // Not Linux, or no such file system here.
  }
  return tmpdir();
}

const root = scratchRoot();

/** A new empty folder named `<prefix>XXXXXX` for a setup's files. */
export function scratchFolder(prefix: string): Promise<string> {
  return mkdtemp(join(root, prefix));
}
