import { type ChildProcess, execFileSync, type StdioOptions, spawn } from 'node:child_process';

// util-linux's `setpriv` execs the server with a parent-death signal: a run killed by a signal,
// which no 'exit' handler sees, takes its server along. Where it is missing, 'exit' still does.
const pdeathsig = (() => {
  try {
    return execFileSync('setpriv', ['--help'], { encoding: 'utf8' }).includes('--pdeathsig');
  } catch {
    return false;
  }
})();

/**
 * Spawns a server of the test run's (redis-server, nginx) that ends with the run: killed with
 * SIGKILL when this process exits, however it exits, by a signal too where `setpriv` is there.
 */
export function spawnTied(binary: string, args: string[], stdio: StdioOptions): ChildProcess {
  const child = pdeathsig
    ? spawn('setpriv', ['--pdeathsig', 'KILL', '--', binary, ...args], { stdio })
    : spawn(binary, args, { stdio });
  // A run that ends without stopping it (an uncaught error, a bench piped into `head`) takes it
  // along: 'exit' handlers run on every way out but a signal.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  return child;
}
