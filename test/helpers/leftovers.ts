import { readdirSync, readFileSync } from 'node:fs';

/**
 * What a test run leaves behind: processes it started (they carry its TMPDIR, see global-setup.ts) whose parent died
 * without stopping them, e.g. the Temporal dev server of a `teamrun dev` a test killed, or a worker of a test that
 * timed out. Processes still under this one (the pool's own, a server being stopped) are not leftovers.
 */
export function leftoverPids(entry: string): number[] {
  const needle = `${entry}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (!/^\d+$/.test(name) || pid === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      if (!(environ.startsWith(needle) || environ.includes(`\0${needle}`))) continue;
      if (!descendsFrom(pid, process.pid) && state(pid) !== 'Z') pids.push(pid);
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}

/** Ends the leftovers of `entry`: SIGTERM, then SIGKILL to those still there after `graceMs`. Returns how many. */
export async function stopLeftovers(entry: string, graceMs = 10_000): Promise<number> {
  const pids = leftoverPids(entry);
  for (const pid of pids) signal(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && pids.some(running)) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const pid of pids.filter(running)) signal(pid, 'SIGKILL');
  return pids.length;
}

function descendsFrom(pid: number, ancestor: number): boolean {
  for (let at = pid, hops = 0; at > 1 && hops < 64; hops++) {
    at = parentOf(at);
    if (at === ancestor) return true;
  }
  return false;
}

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function parentOf(pid: number): number {
  try {
    return Number(statFields(pid)[1]);
  } catch {
    return 0;
  }
}

function state(pid: number): string {
  try {
    return statFields(pid)[0];
  } catch {
    return 'X';
  }
}

function running(pid: number): boolean {
  const s = state(pid);
  return s !== 'X' && s !== 'Z';
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}
