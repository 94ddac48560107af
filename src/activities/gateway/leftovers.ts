/**
 * What workers that died on this host (`kill -9`, the OOM killer) left in the temporary directory: their gateway
 * directories (`teamrun-gw-*`: the socket, the `teamrun` launcher, and the inputs of the attempts they ran, which hold
 * dependency outputs). A worker that stops removes its own; one that is killed cannot. The next worker to start
 * removes those whose gateway no longer answers.
 */
import { lstatSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** The prefix of every gateway directory (gateway.ts). */
export const GATEWAY_DIR_PREFIX = 'teamrun-gw-';

/** A directory younger than this may be a worker that is starting (made, not yet listening): it is left alone. */
export const STARTING_GRACE_MS = 60_000;

/** At most this many directories are looked at per start: a start never waits on an unbounded directory. */
const MAX_LOOKED_AT = 1_000;

/** How long a gateway gets to answer before it counts as alive (a busy worker; never removed on a slow answer). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Removes the gateway directories beside `own` (this worker's) of this user whose socket refuses a connection or is
 * gone, and that are older than `STARTING_GRACE_MS`; returns how many. A gateway that answers is a live worker's,
 * whichever PID namespace it runs in, so a worker in another container sharing the directory is never swept.
 */
export async function removeDeadGateways(own: string): Promise<number> {
  const tmp = path.dirname(own);
  const now = Date.now();
  const uid = process.getuid?.();
  let names: string[];
  try {
    names = readdirSync(tmp).filter((name) => name.startsWith(GATEWAY_DIR_PREFIX));
  } catch {
    return 0;
  }
  const candidates = names
    .slice(0, MAX_LOOKED_AT)
    .map((name) => path.join(tmp, name))
    .filter((dir) => dir !== own && ownedAndSettled(dir, uid, now));
  const dead = await Promise.all(candidates.map(async (dir) => ((await answers(dir)) === false ? dir : null)));
  let removed = 0;
  for (const dir of dead) {
    if (!dir) continue;
    try {
      rmSync(dir, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Not ours to remove after all: left as it is.
    }
  }
  return removed;
}

function ownedAndSettled(dir: string, uid: number | undefined, now: number): boolean {
  try {
    const stat = lstatSync(dir);
    return stat.isDirectory() && (uid === undefined || stat.uid === uid) && now - stat.mtimeMs >= STARTING_GRACE_MS;
  } catch {
    return false;
  }
}

/** Whether the gateway of `dir` answers: true, false when nobody listens (or no socket), null when unknown. */
function answers(dir: string): Promise<boolean | null> {
  return new Promise((resolve) => {
    const socket = net.connect(path.join(dir, 'gateway.sock'));
    const done = (result: boolean | null) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(() => done(null), PROBE_TIMEOUT_MS);
    socket.once('connect', () => done(true));
    socket.once('error', (err: NodeJS.ErrnoException) =>
      done(err.code === 'ECONNREFUSED' || err.code === 'ENOENT' ? false : null),
    );
  });
}
