import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { TeamrunError } from '../../errors';

/**
 * Everything one attempt starts, so that all of it can be stopped, whatever it did to detach.
 *
 * - `cgroup`: the attempt's shell joins a cgroup (v2) of its own before it runs the command, and
 *   every process it starts stays in it (setsid, double forks and reparenting included); the end
 *   of the attempt kills the cgroup (`cgroup.kill`). Needs a writable cgroup v2 hierarchy (root,
 *   or a delegated subtree).
 * - `process-tree`: the attempt's process group, plus every descendant a scan of /proc saw
 *   (by parent, process group or session, rescanned every `SCAN_EVERY_MS`), plus, when the
 *   attempt ends, any process started since the attempt that still carries its environment
 *   marker. A process that detaches between two scans and also clears its environment can escape.
 *
 * Scans read /proc asynchronously: a worker's event loop (and so its heartbeats) never waits on them.
 */
export interface AttemptProcesses {
  readonly mechanism: 'cgroup' | 'process-tree';
  /** `/bin/sh` arguments that run `command` inside the containment. */
  argv(command: string): string[];
  /** The shell's pid, once spawned. */
  started(pid: number): void;
  signal(signal: AttemptSignal): Promise<void>;
  /** Whether any process the attempt started still runs. */
  alive(): Promise<boolean>;
  /** Stops tracking and removes the cgroup (call after everything is gone). */
  dispose(): void;
}

export type CgroupMode = 'auto' | 'off' | 'required';

/** SIGINT is an agent CLI's polite stop (it saves its session); TERM a shell's; KILL the last word. */
export type AttemptSignal = 'SIGINT' | 'SIGTERM' | 'SIGKILL';

export class ContainmentError extends TeamrunError {
  readonly code = 'TeamShellContainment';
}

const SCAN_EVERY_MS = 200;

/**
 * The containment for one attempt: a cgroup when this worker may create one, else a process-tree watch. `sandboxed`:
 * the attempt's first process is bwrap outside its namespace (sandbox.ts). It runs with `--die-with-parent`, so that
 * a worker killed with kill -9 takes the namespace with it, and so its death ends the namespace at once: a polite
 * signal (INT, TERM) goes to everything but it, which ends by itself once the namespace has; KILL goes to all.
 */
export function containAttempt(mode: CgroupMode, environmentMarker: string, sandboxed = false): AttemptProcesses {
  if (mode !== 'off') {
    const cgroup = attemptCgroup();
    if (cgroup) return new CgroupProcesses(cgroup, sandboxed);
    if (mode === 'required') {
      throw new ContainmentError(
        `worker.shell.cgroup is "required" but this worker cannot ` +
          `create a cgroup v2 group (${cgroupProblem ?? 'unknown reason'})`,
      );
    }
  }
  return new TreeProcesses(environmentMarker, sandboxed);
}

// --- cgroup v2 -----------------------------------------------------------------------------------

let workerCgroup: string | null | undefined;
let cgroupProblem: string | undefined;
let attemptSeq = 0;
/** The groups of dead workers, still holding processes, that this worker ended as it made its own. */
let deadWorkersSwept = 0;

/**
 * As the worker starts (createWorker), where it may use cgroups: makes its own group now, not at its first attempt,
 * and so ends at once what the groups of workers that died on this host (kill -9, the OOM killer) still hold: their
 * unsandboxed attempts' processes, which nothing else ends (a sandboxed attempt dies with its worker). Returns how
 * many dead workers' groups still held processes.
 */
export function containmentAtStart(mode: CgroupMode): number {
  if (mode === 'off') return 0;
  workerCgroupDir();
  return deadWorkersSwept;
}

/** `<cgroup2 mount><this process's cgroup>/teamrun-<pid>`, created once; null when not possible here. */
function workerCgroupDir(): string | null {
  if (workerCgroup !== undefined) return workerCgroup;
  workerCgroup = null;
  try {
    const base = ownCgroup();
    if (!base) {
      cgroupProblem = 'no cgroup v2 hierarchy is mounted';
      return null;
    }
    sweepDeadWorkers(base);
    const dir = path.join(base, `teamrun-${process.pid}`);
    mkdirSync(dir, { recursive: true });
    workerCgroup = dir;
    process.once('exit', () => removeCgroupTree(dir));
  } catch (err) {
    cgroupProblem = (err as Error).message;
  }
  return workerCgroup;
}

function attemptCgroup(): string | null {
  const dir = workerCgroupDir();
  if (!dir) return null;
  const attempt = path.join(dir, `attempt-${++attemptSeq}`);
  try {
    mkdirSync(attempt);
    return attempt;
  } catch (err) {
    cgroupProblem = (err as Error).message;
    return null;
  }
}

/** This process's cgroup v2 group, as a path under the hierarchy's mount; null when none is mounted. */
export function ownCgroup(): string | null {
  const mount = readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((line) => line.split(' '))
    .find((f) => f[f.indexOf('-') + 1] === 'cgroup2')?.[4];
  const own = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .find((line) => line.startsWith('0::'))
    ?.slice(3);
  return mount && own !== undefined ? path.join(mount, own) : null;
}

/** Groups left by a worker that died (kill -9) still hold its attempts' processes: end them. */
function sweepDeadWorkers(base: string): void {
  for (const name of readdirSync(base)) {
    const pid = /^teamrun-(\d+)$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || processExists(Number(pid))) continue;
    const dir = path.join(base, name);
    if (populated(dir)) deadWorkersSwept++;
    removeCgroupTree(dir);
  }
}

/** Whether a group or any below it holds a process (cgroup v2's `cgroup.events`). */
export function populated(dir: string): boolean {
  try {
    return /^populated 1$/m.test(readFileSync(path.join(dir, 'cgroup.events'), 'utf8'));
  } catch {
    return false;
  }
}

/** Ends every process in a group and the groups below it, and removes those already empty. */
export function removeCgroupTree(dir: string): void {
  try {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) removeCgroupTree(path.join(dir, entry.name));
    }
    killCgroup(dir);
    rmdirSync(dir);
  } catch {
    // Still populated, or already gone: a later sweep retries.
  }
}

function killCgroup(dir: string): void {
  const kill = path.join(dir, 'cgroup.kill');
  if (existsSync(kill)) {
    writeFileSync(kill, '1');
    return;
  }
  for (const pid of cgroupPids(dir)) signalPid(pid, 'SIGKILL');
}

function cgroupPids(dir: string): number[] {
  try {
    return readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

class CgroupProcesses implements AttemptProcesses {
  readonly mechanism = 'cgroup' as const;
  private root: number | undefined;
  constructor(
    private readonly dir: string,
    private readonly sandboxed: boolean,
  ) {}

  argv(command: string): string[] {
    // The shell moves itself into the cgroup, then becomes the command: nothing runs outside it.
    return ['-c', 'echo $$ > "$0/cgroup.procs" && exec /bin/sh -c "$1"', this.dir, command];
  }

  started(pid: number): void {
    this.root = pid;
  }

  async signal(signal: AttemptSignal): Promise<void> {
    const spared = spares(this.sandboxed, signal, this.root);
    try {
      if (signal === 'SIGKILL') killCgroup(this.dir);
      else for (const pid of cgroupPids(this.dir)) if (pid !== spared) signalPid(pid, signal);
    } catch {
      // The group is gone already.
    }
    if (this.root !== undefined && spared === undefined) signalGroup(this.root, signal);
  }

  async alive(): Promise<boolean> {
    return cgroupPids(this.dir).length > 0;
  }

  dispose(): void {
    removeCgroupTree(this.dir);
  }
}

// --- process tree through /proc ------------------------------------------------------------------

interface ProcInfo {
  pid: number;
  ppid: number;
  pgrp: number;
  session: number;
  /** Start time in clock ticks since boot: a pid plus its start time names one process. */
  start: number;
}

function parseStat(pid: number, stat: string): ProcInfo | null {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  if (f[0] === 'Z' || f[0] === 'X') return null;
  return { pid, ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), start: Number(f[19]) };
}

function readProc(pid: number): ProcInfo | null {
  try {
    return parseStat(pid, readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null;
  }
}

async function readProcs(): Promise<ProcInfo[]> {
  const names = (await readdir('/proc')).filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57);
  const procs = await Promise.all(
    names.map((name) =>
      readFile(`/proc/${name}/stat`, 'utf8').then(
        (stat) => parseStat(Number(name), stat),
        () => null,
      ),
    ),
  );
  return procs.filter((p): p is ProcInfo => p !== null);
}

/** One scan of /proc every `SCAN_EVERY_MS` serves every attempt the worker runs; a slow scan is never overlapped. */
const watching = new Set<TreeProcesses>();
let scanTimer: NodeJS.Timeout | undefined;
let scanning = false;

function watch(tree: TreeProcesses): void {
  watching.add(tree);
  scanTimer ??= setInterval(() => {
    if (scanning) return;
    scanning = true;
    readProcs()
      .then((procs) => {
        for (const t of watching) t.absorb(procs);
      })
      .catch(() => undefined)
      .finally(() => (scanning = false));
  }, SCAN_EVERY_MS).unref();
}

function unwatch(tree: TreeProcesses): void {
  watching.delete(tree);
  if (watching.size === 0 && scanTimer) {
    clearInterval(scanTimer);
    scanTimer = undefined;
  }
}

class TreeProcesses implements AttemptProcesses {
  readonly mechanism = 'process-tree' as const;
  private root: number | undefined;
  private rootStart = 0;
  /** Every process seen to belong to the attempt, with its start time (pids get reused). */
  private readonly known = new Map<number, number>();

  constructor(
    private readonly environmentMarker: string,
    private readonly sandboxed: boolean,
  ) {}

  argv(command: string): string[] {
    return ['-c', command];
  }

  started(pid: number): void {
    this.root = pid;
    const info = readProc(pid);
    this.rootStart = info?.start ?? 0;
    this.known.set(pid, this.rootStart);
    watch(this);
  }

  absorb(procs: ReadonlyArray<ProcInfo>): void {
    const byPid = new Map(procs.map((p) => [p.pid, p]));
    const belongs = (p: ProcInfo) => {
      const parent = byPid.get(p.ppid);
      // A parent counts only while it is the same process we saw (same start time).
      if (parent && this.known.get(p.ppid) === parent.start) return true;
      // Groups and sessions are named by a pid Linux does not reuse while they exist.
      return this.known.has(p.pgrp) || this.known.has(p.session);
    };
    for (let grew = true; grew;) {
      grew = false;
      for (const p of procs) {
        if (p.pid === process.pid || p.start < this.rootStart || this.known.get(p.pid) === p.start) continue;
        if (belongs(p)) {
          this.known.set(p.pid, p.start);
          grew = true;
        }
      }
    }
  }

  /** Processes started since the attempt that carry its environment marker, whatever they did to their parentage. */
  private async absorbMarked(procs: ReadonlyArray<ProcInfo>): Promise<void> {
    const candidates = procs.filter(
      (p) => p.pid !== process.pid && p.start >= this.rootStart && this.known.get(p.pid) !== p.start,
    );
    await Promise.all(
      candidates.map(async (p) => {
        try {
          if ((await readFile(`/proc/${p.pid}/environ`, 'latin1')).includes(this.environmentMarker))
            this.known.set(p.pid, p.start);
        } catch {
          // Not ours to read, or gone.
        }
      }),
    );
  }

  /** A fresh look: the group, every descendant seen so far or now, and anything carrying the marker. */
  private async members(): Promise<ProcInfo[]> {
    if (this.root === undefined) return [];
    const procs = await readProcs();
    this.absorb(procs);
    await this.absorbMarked(procs);
    return procs.filter((p) => p.pgrp === this.root || this.known.get(p.pid) === p.start);
  }

  async signal(signal: AttemptSignal): Promise<void> {
    if (this.root === undefined) return;
    const spared = spares(this.sandboxed, signal, this.root);
    if (spared === undefined) signalGroup(this.root, signal);
    for (const p of await this.members()) if (p.pid !== spared) signalPid(p.pid, signal);
  }

  async alive(): Promise<boolean> {
    return (await this.members()).length > 0;
  }

  dispose(): void {
    unwatch(this);
  }
}

/** The pid a polite `signal` leaves alone: a sandboxed attempt's outer bwrap (see `containAttempt`). */
function spares(sandboxed: boolean, signal: AttemptSignal, root: number | undefined): number | undefined {
  return sandboxed && signal !== 'SIGKILL' ? root : undefined;
}

function signalPid(pid: number, signal: NodeJS.Signals): void {
  if (pid === process.pid || pid <= 1) return;
  try {
    process.kill(pid, signal);
  } catch {
    // Gone already.
  }
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // The group is empty.
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
