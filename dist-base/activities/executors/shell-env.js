"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.BASE_ENV = void 0;
exports.globMatcher = globMatcher;
exports.shellEnvironment = shellEnvironment;
exports.environmentMarker = environmentMarker;
exports.writeInputs = writeInputs;
exports.resolveCwd = resolveCwd;
exports.checkCommand = checkCommand;
const node_fs_1 = require("node:fs");
const node_os_1 = __importDefault(require("node:os"));
const node_path_1 = __importDefault(require("node:path"));
const types_1 = require("./types");
/** The worker's variables every task gets (when set), whatever the config says. */
exports.BASE_ENV = ['PATH', 'HOME', 'LANG', 'LC_*', 'TMPDIR', 'TZ'];
const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
/** `*` and `?` globs over names (`AWS_*`); anything else matches literally. */
function globMatcher(patterns) {
    const exact = new Set(patterns.filter((p) => !/[*?]/.test(p)));
    const globs = patterns
        .filter((p) => /[*?]/.test(p))
        .map((p) => new RegExp(`^${p
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '.*')
        .replace(/\?/g, '.')}$`));
    return (name) => exact.has(name) || globs.some((g) => g.test(name));
}
/**
 * The environment of one shell attempt: an allowlist. The worker's PATH, HOME, LANG, LC_*,
 * TMPDIR and TZ, the names `worker.shell.passEnv` lists, the plan's literal values, the values
 * the plan takes from `worker.shell.secretEnv` by name, the worker's `TEMPORAL_ADDRESS` and
 * `TEMPORAL_NAMESPACE`, and the attempt's `TEAMRUN_*` variables, with its gateway's socket and
 * secret; PATH starts with the directory of the worker's own `teamrun`.
 */
function shellEnvironment(planEnv, ctx, extra) {
    const shell = ctx.config.worker.shell;
    const passes = globMatcher([...exports.BASE_ENV, ...shell.passEnv]);
    const env = {};
    for (const [name, value] of Object.entries(ctx.env)) {
        if (value !== undefined && passes(name))
            env[name] = value;
    }
    env.PATH ??= DEFAULT_PATH;
    const secretNames = new Set(shell.secretEnv);
    for (const [name, value] of Object.entries(planEnv ?? {})) {
        if (typeof value === 'string') {
            env[name] = value;
            continue;
        }
        const source = value?.fromWorkerEnv;
        if (typeof source !== 'string' || !secretNames.has(source)) {
            throw new types_1.ExecutorError(`env.${name}: fromWorkerEnv "${String(source)}" is not listed in worker.shell.secretEnv ` +
                `of this worker; a task may only take the worker variables its operator lists there`, { nonRetryable: true, type: 'TeamShellEnvRefused' });
        }
        const resolved = ctx.env[source];
        if (resolved === undefined) {
            throw new types_1.ExecutorError(`env.${name}: fromWorkerEnv "${source}" is not set in this worker's environment`, {
                nonRetryable: true,
                type: 'TeamShellEnvRefused',
            });
        }
        env[name] = resolved;
    }
    // The worker's own cluster, so `teamrun` commands inside a task find the run (credentials only if passed on).
    const cluster = {
        TEMPORAL_ADDRESS: ctx.config.connection.address,
        TEMPORAL_NAMESPACE: ctx.config.connection.namespace,
    };
    return { ...env, ...cluster, ...(0, types_1.attemptEnv)(ctx), TEAMRUN_HOLDER: ctx.holder, ...extra, ...gatewayEnv(ctx, env.PATH) };
}
/**
 * What `teamrun send|inbox|add-tasks` inside the task use to speak as the attempt (the plan cannot
 * set them), and a PATH on which `teamrun` is the worker's own.
 */
function gatewayEnv(ctx, pathList) {
    const access = ctx.attemptGateway;
    if (!access)
        return {};
    return {
        TEAMRUN_ATTEMPT_SOCKET: access.socket,
        TEAMRUN_ATTEMPT_SECRET: access.secret,
        ...(access.binDir ? { PATH: `${access.binDir}${node_path_1.default.delimiter}${pathList}` } : {}),
    };
}
/** The variable a process of this attempt carries, by which the worker finds it if it detached. */
function environmentMarker(ctx) {
    return `TEAMRUN_LEASE_ID=${ctx.leaseId}\0`;
}
/**
 * Dependency outputs, for the task: always as a file (`TEAMRUN_INPUTS_FILE`, removed when the
 * attempt ends), and inline (`TEAMRUN_INPUTS`) while small, since the environment has a size limit.
 */
function writeInputs(outputs, inlineMaxBytes, inbox = []) {
    const json = JSON.stringify(outputs);
    const dir = (0, node_fs_1.mkdtempSync)(node_path_1.default.join(node_os_1.default.tmpdir(), 'teamrun-inputs-'));
    const file = node_path_1.default.join(dir, 'inputs.json');
    (0, node_fs_1.writeFileSync)(file, json, { mode: 0o600 });
    // The mailbox messages waiting when the attempt started; `teamrun inbox` reads newer ones.
    const inboxFile = node_path_1.default.join(dir, 'inbox.json');
    (0, node_fs_1.writeFileSync)(inboxFile, JSON.stringify(inbox), { mode: 0o600 });
    const env = { TEAMRUN_INPUTS_FILE: file, TEAMRUN_INBOX: inboxFile };
    if (Buffer.byteLength(json) <= inlineMaxBytes)
        env.TEAMRUN_INPUTS = json;
    return { env, remove: () => (0, node_fs_1.rmSync)(dir, { recursive: true, force: true }) };
}
/**
 * The directory the command runs in, checked: it exists, and it is inside `worker.shell.cwdRoot`
 * when one is set (relative paths are taken from there; symlinks and `..` cannot leave it).
 */
function resolveCwd(cwd, shell) {
    const root = shell.cwdRoot;
    const wanted = root ? node_path_1.default.resolve(root, cwd ?? '.') : cwd;
    if (wanted === undefined)
        return undefined;
    let real;
    try {
        real = (0, node_fs_1.realpathSync)(wanted);
        if (!(0, node_fs_1.statSync)(real).isDirectory())
            throw new Error('not a directory');
    }
    catch (err) {
        const missing = err.code === 'ENOENT';
        throw new types_1.ExecutorError(`cwd "${cwd ?? wanted}" ` +
            `${missing ? 'does not exist' : `is not a usable directory (${err.message})`}` +
            `${wanted !== cwd ? ` (resolved to ${wanted})` : ''}`, {
            nonRetryable: true,
            type: 'TeamShellBadCwd',
        });
    }
    if (root) {
        const realRoot = (0, node_fs_1.realpathSync)(root);
        const inside = node_path_1.default.relative(realRoot, real);
        if (inside.startsWith('..') || node_path_1.default.isAbsolute(inside)) {
            throw new types_1.ExecutorError(`cwd "${cwd}" resolves to ${real}, outside worker.shell.cwdRoot ` +
                `(${realRoot}); tasks on this worker may only run inside it`, {
                nonRetryable: true,
                type: 'TeamShellCwdRefused',
            });
        }
    }
    return real;
}
/**
 * `worker.shell.allowCommands`: a command runs only if one pattern matches all of it. A pattern
 * written `/.../` is a regular expression; any other is a glob where `*` matches any text.
 */
function checkCommand(command, patterns) {
    if (!patterns)
        return;
    const matches = patterns.some((p) => {
        const regex = /^\/(.*)\/$/s.exec(p);
        if (regex)
            return new RegExp(`^(?:${regex[1]})$`, 's').test(command);
        return new RegExp(`^${p.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 's').test(command);
    });
    if (!matches) {
        const shown = command.length > 200 ? `${command.slice(0, 200)}...` : command;
        throw new types_1.ExecutorError(`command refused: "${shown}" matches none of worker.shell.allowCommands ` +
            `(${patterns.map((p) => JSON.stringify(p)).join(', ') || 'empty: no command may run'})`, { nonRetryable: true, type: 'TeamShellCommandRefused' });
    }
}
