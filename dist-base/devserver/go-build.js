"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.goBuild = goBuild;
/**
 * A Go program built from the Go module proxy, as upstream builds it: the module downloaded
 * (`go mod download`), then `go build` inside its own directory so its go.mod (and every replace in
 * it) applies; into a scratch directory the caller renames once all is in place, so an interrupted
 * build leaves nothing that looks finished. The cluster's Temporal server and Jaeger are built so.
 */
const node_child_process_1 = require("node:child_process");
const node_fs_1 = require("node:fs");
const node_path_1 = __importDefault(require("node:path"));
/** Builds into `<dir>.partial/bin/`; returns that scratch directory and the module's own directory. */
function goBuild(build) {
    const go = (0, node_child_process_1.spawnSync)('go', ['version'], { encoding: 'utf8' });
    if (go.status !== 0)
        throw build.fail('GO_NOT_FOUND', `building ${build.what} ${build.version} needs the Go toolchain ("go" on PATH): ` +
            (go.error?.message ?? go.stderr));
    build.log(`building ${build.what} ${build.version} with ${go.stdout.trim()} (once; cached in ${build.dir})`);
    const target = `${build.module}@${build.version}`;
    const download = (0, node_child_process_1.spawnSync)('go', ['mod', 'download', '-json', target], { encoding: 'utf8', maxBuffer: 16 << 20 });
    let module = {};
    try {
        module = JSON.parse(download.stdout || '{}');
    }
    catch {
        // Not JSON: the go command's own error, in stderr, says why.
    }
    if (!module.Dir)
        throw build.fail('GO_DOWNLOAD_FAILED', `go mod download ${target}: ${module.Error ?? download.stderr}`);
    const scratch = `${build.dir}.partial`;
    (0, node_fs_1.rmSync)(scratch, { recursive: true, force: true });
    const bin = node_path_1.default.join(scratch, 'bin');
    (0, node_fs_1.mkdirSync)(bin, { recursive: true });
    // `nice`: the build takes minutes of every core it can get.
    const built = (0, node_child_process_1.spawnSync)('nice', ['-n', '10', 'go', 'build', '-trimpath', '-ldflags', '-s -w', '-o', build.output(bin), ...build.packages], { cwd: module.Dir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOFLAGS: '-mod=mod' } });
    if (built.status !== 0)
        throw build.fail('GO_BUILD_FAILED', `go build of ${build.what} ${build.version} failed (exit ${built.status})`);
    return { scratch, moduleDir: module.Dir };
}
