import { readFileSync, readdirSync } from 'node:fs';

/** True while `pid` runs; a zombie (exited, not yet reaped by whoever adopted it) counts as gone. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/**
 * The host's pids of the live processes whose environment holds `entry` (`NAME=value`). Under the worker's sandbox
 * (`worker.sandbox`, on by default where bubblewrap works) a task has a PID namespace of its own: the `$$` or `$!` it
 * prints are its namespace's, not the host's, so a test that checks or signals its processes from outside finds them
 * by a mark in their environment instead (the sandbox keeps the environment, and the bwrap processes around the task
 * carry it too).
 */
export function hostPidsWithEnv(entry: string): number[] {
  const needle = `${entry}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`, 'latin1');
      if ((environ.startsWith(needle) || environ.includes(`\0${needle}`)) && alive(Number(name)))
        pids.push(Number(name));
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return pids;
}
