"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.ContainmentError = void 0;
exports.containAttempt = containAttempt;
const node_fs_1 = require("node:fs");
const promises_1 = require("node:fs/promises");
const node_path_1 = __importDefault(require("node:path"));
const errors_1 = require("../../errors");
class ContainmentError extends errors_1.TeamrunError {
    code = 'TeamShellContainment';
}
exports.ContainmentError = ContainmentError;
const SCAN_EVERY_MS = 200;
/** The containment for one attempt: a cgroup when this worker may create one, else a process-tree watch. */
function containAttempt(mode, environmentMarker) {
    if (mode !== 'off') {
        const cgroup = attemptCgroup();
        if (cgroup)
            return new CgroupProcesses(cgroup);
        if (mode === 'required') {
            throw new ContainmentError(`worker.shell.cgroup is "required" but this worker cannot ` +
                `create a cgroup v2 group (${cgroupProblem ?? 'unknown reason'})`);
        }
    }
    return new TreeProcesses(environmentMarker);
}
// --- cgroup v2 -----------------------------------------------------------------------------------
let workerCgroup;
let cgroupProblem;
let attemptSeq = 0;
/** `<cgroup2 mount><this process's cgroup>/teamrun-<pid>`, created once; null when not possible here. */
function workerCgroupDir() {
    if (workerCgroup !== undefined)
        return workerCgroup;
    workerCgroup = null;
    try {
        const mount = (0, node_fs_1.readFileSync)('/proc/self/mountinfo', 'utf8')
            .split('\n')
            .map((line) => line.split(' '))
            .find((f) => f[f.indexOf('-') + 1] === 'cgroup2')?.[4];
        const own = (0, node_fs_1.readFileSync)('/proc/self/cgroup', 'utf8')
            .split('\n')
            .find((line) => line.startsWith('0::'))
            ?.slice(3);
        if (!mount || own === undefined) {
            cgroupProblem = 'no cgroup v2 hierarchy is mounted';
            return null;
        }
        const base = node_path_1.default.join(mount, own);
        sweepDeadWorkers(base);
        const dir = node_path_1.default.join(base, `teamrun-${process.pid}`);
        (0, node_fs_1.mkdirSync)(dir, { recursive: true });
        workerCgroup = dir;
        process.once('exit', () => removeCgroupTree(dir));
    }
    catch (err) {
        cgroupProblem = err.message;
    }
    return workerCgroup;
}
function attemptCgroup() {
    const dir = workerCgroupDir();
    if (!dir)
        return null;
    const attempt = node_path_1.default.join(dir, `attempt-${++attemptSeq}`);
    try {
        (0, node_fs_1.mkdirSync)(attempt);
        return attempt;
    }
    catch (err) {
        cgroupProblem = err.message;
        return null;
    }
}
/** Groups left by a worker that died (kill -9) still hold its attempts' processes: end them. */
function sweepDeadWorkers(base) {
    for (const name of (0, node_fs_1.readdirSync)(base)) {
        const pid = /^teamrun-(\d+)$/.exec(name)?.[1];
        if (!pid || Number(pid) === process.pid || processExists(Number(pid)))
            continue;
        removeCgroupTree(node_path_1.default.join(base, name));
    }
}
function removeCgroupTree(dir) {
    try {
        for (const entry of (0, node_fs_1.readdirSync)(dir, { withFileTypes: true })) {
            if (entry.isDirectory())
                removeCgroupTree(node_path_1.default.join(dir, entry.name));
        }
        killCgroup(dir);
        (0, node_fs_1.rmdirSync)(dir);
    }
    catch {
        // Still populated, or already gone: a later sweep retries.
    }
}
function killCgroup(dir) {
    const kill = node_path_1.default.join(dir, 'cgroup.kill');
    if ((0, node_fs_1.existsSync)(kill)) {
        (0, node_fs_1.writeFileSync)(kill, '1');
        return;
    }
    for (const pid of cgroupPids(dir))
        signalPid(pid, 'SIGKILL');
}
function cgroupPids(dir) {
    try {
        return (0, node_fs_1.readFileSync)(node_path_1.default.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
    }
    catch {
        return [];
    }
}
class CgroupProcesses {
    dir;
    mechanism = 'cgroup';
    root;
    constructor(dir) {
        this.dir = dir;
    }
    argv(command) {
        // The shell moves itself into the cgroup, then becomes the command: nothing runs outside it.
        return ['-c', 'echo $$ > "$0/cgroup.procs" && exec /bin/sh -c "$1"', this.dir, command];
    }
    started(pid) {
        this.root = pid;
    }
    async signal(signal) {
        try {
            if (signal === 'SIGKILL')
                killCgroup(this.dir);
            else
                for (const pid of cgroupPids(this.dir))
                    signalPid(pid, signal);
        }
        catch {
            // The group is gone already.
        }
        if (this.root !== undefined)
            signalGroup(this.root, signal);
    }
    async alive() {
        return cgroupPids(this.dir).length > 0;
    }
    dispose() {
        removeCgroupTree(this.dir);
    }
}
function parseStat(pid, stat) {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (f[0] === 'Z' || f[0] === 'X')
        return null;
    return { pid, ppid: Number(f[1]), pgrp: Number(f[2]), session: Number(f[3]), start: Number(f[19]) };
}
function readProc(pid) {
    try {
        return parseStat(pid, (0, node_fs_1.readFileSync)(`/proc/${pid}/stat`, 'utf8'));
    }
    catch {
        return null;
    }
}
async function readProcs() {
    const names = (await (0, promises_1.readdir)('/proc')).filter((name) => name.charCodeAt(0) >= 48 && name.charCodeAt(0) <= 57);
    const procs = await Promise.all(names.map((name) => (0, promises_1.readFile)(`/proc/${name}/stat`, 'utf8').then((stat) => parseStat(Number(name), stat), () => null)));
    return procs.filter((p) => p !== null);
}
/** One scan of /proc every `SCAN_EVERY_MS` serves every attempt the worker runs; a slow scan is never overlapped. */
const watching = new Set();
let scanTimer;
let scanning = false;
function watch(tree) {
    watching.add(tree);
    scanTimer ??= setInterval(() => {
        if (scanning)
            return;
        scanning = true;
        readProcs()
            .then((procs) => {
            for (const t of watching)
                t.absorb(procs);
        })
            .catch(() => undefined)
            .finally(() => (scanning = false));
    }, SCAN_EVERY_MS).unref();
}
function unwatch(tree) {
    watching.delete(tree);
    if (watching.size === 0 && scanTimer) {
        clearInterval(scanTimer);
        scanTimer = undefined;
    }
}
class TreeProcesses {
    environmentMarker;
    mechanism = 'process-tree';
    root;
    rootStart = 0;
    /** Every process seen to belong to the attempt, with its start time (pids get reused). */
    known = new Map();
    constructor(environmentMarker) {
        this.environmentMarker = environmentMarker;
    }
    argv(command) {
        return ['-c', command];
    }
    started(pid) {
        this.root = pid;
        const info = readProc(pid);
        this.rootStart = info?.start ?? 0;
        this.known.set(pid, this.rootStart);
        watch(this);
    }
    absorb(procs) {
        const byPid = new Map(procs.map((p) => [p.pid, p]));
        const belongs = (p) => {
            const parent = byPid.get(p.ppid);
            // A parent counts only while it is the same process we saw (same start time).
            if (parent && this.known.get(p.ppid) === parent.start)
                return true;
            // Groups and sessions are named by a pid Linux does not reuse while they exist.
            return this.known.has(p.pgrp) || this.known.has(p.session);
        };
        for (let grew = true; grew;) {
            grew = false;
            for (const p of procs) {
                if (p.pid === process.pid || p.start < this.rootStart || this.known.get(p.pid) === p.start)
                    continue;
                if (belongs(p)) {
                    this.known.set(p.pid, p.start);
                    grew = true;
                }
            }
        }
    }
    /** Processes started since the attempt that carry its environment marker, whatever they did to their parentage. */
    async absorbMarked(procs) {
        const candidates = procs.filter((p) => p.pid !== process.pid && p.start >= this.rootStart && this.known.get(p.pid) !== p.start);
        await Promise.all(candidates.map(async (p) => {
            try {
                if ((await (0, promises_1.readFile)(`/proc/${p.pid}/environ`, 'latin1')).includes(this.environmentMarker))
                    this.known.set(p.pid, p.start);
            }
            catch {
                // Not ours to read, or gone.
            }
        }));
    }
    /** A fresh look: the group, every descendant seen so far or now, and anything carrying the marker. */
    async members() {
        if (this.root === undefined)
            return [];
        const procs = await readProcs();
        this.absorb(procs);
        await this.absorbMarked(procs);
        return procs.filter((p) => p.pgrp === this.root || this.known.get(p.pid) === p.start);
    }
    async signal(signal) {
        if (this.root === undefined)
            return;
        signalGroup(this.root, signal);
        for (const p of await this.members())
            signalPid(p.pid, signal);
    }
    async alive() {
        return (await this.members()).length > 0;
    }
    dispose() {
        unwatch(this);
    }
}
function signalPid(pid, signal) {
    if (pid === process.pid || pid <= 1)
        return;
    try {
        process.kill(pid, signal);
    }
    catch {
        // Gone already.
    }
}
function signalGroup(pgid, signal) {
    try {
        process.kill(-pgid, signal);
    }
    catch {
        // The group is empty.
    }
}
function processExists(pid) {
    try {
        process.kill(pid, 0);
        return true;
    }
    catch (err) {
        return err.code === 'EPERM';
    }
}
