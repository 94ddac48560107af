/**
 * A Go program built from the Go module proxy, as upstream builds it: the module downloaded
 * (`go mod download`), then `go build` inside its own directory so its go.mod (and every replace in
 * it) applies; into a scratch directory the caller renames once all is in place, so an interrupted
 * build leaves nothing that looks finished. The cluster's Temporal server and Jaeger are built so.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';

export type GoBuildFailure = 'GO_NOT_FOUND' | 'GO_DOWNLOAD_FAILED' | 'GO_BUILD_FAILED';

export interface GoBuild {
  /** What is built, for messages: "Temporal server", "Jaeger". */
  what: string;
  module: string;
  version: string;
  /** Packages of the module to build (`./cmd/jaeger`). */
  packages: string[];
  /** Where the caller's finished build will be, named in the log; the build goes to `<dir>.partial`. */
  dir: string;
  /** `go build -o`: a file name for one package, a directory (ending in a separator) for several. */
  output: (scratchBin: string) => string;
  /** The caller's error for a failed step. */
  fail: (code: GoBuildFailure, message: string) => Error;
  log: (line: string) => void;
  /** Build without the compiler's optimizations (`-gcflags=all=-N -l`): about a third less CPU to build. */
  unoptimized?: boolean;
}

/** Builds into `<dir>.partial/bin/`; returns that scratch directory and the module's own directory. */
export function goBuild(build: GoBuild): { scratch: string; moduleDir: string } {
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0)
    throw build.fail(
      'GO_NOT_FOUND',
      `building ${build.what} ${build.version} needs the Go toolchain ("go" on PATH): ` +
        (go.error?.message ?? go.stderr),
    );
  build.log(`building ${build.what} ${build.version} with ${go.stdout.trim()} (once; cached in ${build.dir})`);
  const target = `${build.module}@${build.version}`;
  const download = spawnSync('go', ['mod', 'download', '-json', target], { encoding: 'utf8', maxBuffer: 16 << 20 });
  let module: { Dir?: string; Error?: string } = {};
  try {
    module = JSON.parse(download.stdout || '{}') as typeof module;
  } catch {
    // Not JSON: the go command's own error, in stderr, says why.
  }
  if (!module.Dir)
    throw build.fail('GO_DOWNLOAD_FAILED', `go mod download ${target}: ${module.Error ?? download.stderr}`);
  const scratch = `${build.dir}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  const bin = path.join(scratch, 'bin');
  mkdirSync(bin, { recursive: true });
  // `nice`: the build takes minutes of every core it can get.
  const built = spawnSync(
    'nice',
    [
      '-n',
      '10',
      'go',
      'build',
      '-trimpath',
      '-ldflags',
      '-s -w',
      ...(build.unoptimized ? ['-gcflags=all=-N -l'] : []),
      '-o',
      build.output(bin),
      ...build.packages,
    ],
    { cwd: module.Dir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOFLAGS: '-mod=mod' } },
  );
  if (built.status !== 0)
    throw build.fail('GO_BUILD_FAILED', `go build of ${build.what} ${build.version} failed (exit ${built.status})`);
  return { scratch, moduleDir: module.Dir };
}
