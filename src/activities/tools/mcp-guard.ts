/**
 * How a stdio MCP server is started so that nothing of it outlives its attempt, or its worker.
 *
 * The server runs under a small `/bin/sh` guard, in a process group (and session) of its own
 * (`setsid`), with the MCP stdio streams passed straight through. The guard ends that whole group
 * (SIGKILL) when the server exits, when it is told to stop (SIGTERM, SIGINT, SIGHUP: what the MCP
 * client sends on close after the server's stdin is shut), and when the worker dies, however it
 * dies: on Linux the guard runs under `setpriv --pdeathsig TERM`, so kill -9 of the worker sends it
 * SIGTERM. A server's children that stay in its group (npx, a node server behind it) go with it;
 * one that starts a session of its own (`setsid` again) leaves the group.
 *
 * Without `setsid` on the worker the server is started directly, as before (no group); without
 * `setpriv` (not Linux, or no util-linux) the guard runs but a worker's kill -9 does not reach it.
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/**
 * `$0` is the guard's name in `ps`; `$@` the server's command and arguments. Its stdin is kept
 * on fd 3 because a background command's stdin is otherwise /dev/null.
 */
const GUARD_SCRIPT = [
  'exec 3<&0',
  'pid=',
  `trap 'if [ -n "$pid" ]; then kill -KILL -"$pid" 2>/dev/null; fi; exit 143' TERM INT HUP`,
  'setsid "$@" 0<&3 3<&- &',
  'pid=$!',
  'exec 3<&-',
  'wait "$pid"; status=$?',
  'kill -KILL -"$pid" 2>/dev/null',
  'exit "$status"',
].join('\n');

let tools: { setsid: string | null; setpriv: string | null } | undefined;

function onPath(name: string): string | null {
  for (const dir of ['/usr/bin', '/bin', '/usr/sbin', '/sbin', ...(process.env.PATH ?? '').split(path.delimiter)]) {
    if (!dir) continue;
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // Not here.
    }
  }
  return null;
}

function guardTools(): { setsid: string | null; setpriv: string | null } {
  tools ??= {
    setsid: process.platform === 'win32' ? null : onPath('setsid'),
    setpriv: process.platform === 'linux' ? onPath('setpriv') : null,
  };
  return tools;
}

/** How the guard contains a server on this worker: `pdeathsig` (group and worker death), `group`, or `none`. */
export function mcpContainment(): 'pdeathsig' | 'group' | 'none' {
  const { setsid, setpriv } = guardTools();
  if (!setsid) return 'none';
  return setpriv ? 'pdeathsig' : 'group';
}

/** The command line that starts `command args` under the guard (or as it is, where there is no guard). */
export function guardedCommand(command: string, args: readonly string[]): { command: string; args: string[] } {
  const { setsid, setpriv } = guardTools();
  if (!setsid) return { command, args: [...args] };
  // The guard finds setsid by its absolute path: the server's PATH is its own allowlist.
  const guard = ['/bin/sh', '-c', GUARD_SCRIPT.replace('setsid "$@"', `'${setsid}' "$@"`), 'teamrun-mcp-guard'];
  const argv = setpriv ? [setpriv, '--pdeathsig', 'TERM', '--', ...guard] : guard;
  return { command: argv[0], args: [...argv.slice(1), command, ...args] };
}
