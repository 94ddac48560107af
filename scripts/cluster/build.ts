import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/devserver/binary';

/**
 * The Temporal server the cluster runs: the one inside the `temporal` CLI teamrun's dev server
 * uses (1.9.1 embeds server v1.32.0), so the cluster tests differ from `npm test` in shape only.
 * v1.32.0 declares Go 1.26.8; a later patch may declare a newer Go, which `GOTOOLCHAIN` fetches.
 */
export const TEMPORAL_SERVER_VERSION = process.env.TEAMRUN_CLUSTER_VERSION ?? 'v1.32.0';

export interface ServerBuild {
  version: string;
  /** `temporal-server` (cmd/server): frontend, history, matching and worker, one per process. */
  server: string;
  /** `temporal-sql-tool` (cmd/tools/sql): creates and migrates the schemas. */
  sqlTool: string;
  /** The module's `schema/postgresql/v12` (temporal and visibility, each with `versioned/`). */
  schemaDir: string;
}

/** `.teamrun/cluster/<version>`: one directory per version, so a second run builds nothing. */
export function buildDir(version = TEMPORAL_SERVER_VERSION): string {
  return path.join(projectRoot(), '.teamrun', 'cluster', version);
}

function paths(version: string): ServerBuild {
  const dir = buildDir(version);
  return {
    version,
    server: path.join(dir, 'bin', 'temporal-server'),
    sqlTool: path.join(dir, 'bin', 'temporal-sql-tool'),
    schemaDir: path.join(dir, 'schema', 'postgresql', 'v12'),
  };
}

export function builtServer(version = TEMPORAL_SERVER_VERSION): ServerBuild | null {
  const build = paths(version);
  return existsSync(build.server) && existsSync(build.sqlTool) && existsSync(build.schemaDir) ? build : null;
}

/**
 * Builds `temporal-server` and `temporal-sql-tool` at `version` from the Go module proxy with the
 * Go toolchain on PATH, unless they are built already. Builds into a scratch dir and renames at
 * the end, so an interrupted build leaves nothing that looks finished.
 */
export function ensureServerBuild(log: (line: string) => void, version = TEMPORAL_SERVER_VERSION): ServerBuild {
  const done = builtServer(version);
  if (done) return done;
  const go = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (go.status !== 0) {
    throw Object.assign(
      new Error(
        `building the Temporal server ${version} needs the Go toolchain ("go" on PATH): ${go.error?.message ?? go.stderr}`,
      ),
      {
        code: 'GO_NOT_FOUND',
      },
    );
  }
  const began = Date.now();
  log(`building Temporal server ${version} with ${go.stdout.trim()} (once; cached in ${buildDir(version)})`);
  const module = JSON.parse(
    execFileSync('go', ['mod', 'download', '-json', `go.temporal.io/server@${version}`], {
      encoding: 'utf8',
      maxBuffer: 16 << 20,
    }),
  ) as { Dir?: string; Error?: string };
  if (!module.Dir)
    throw Object.assign(new Error(`go mod download go.temporal.io/server@${version}: ${module.Error}`), {
      code: 'GO_DOWNLOAD_FAILED',
    });
  const dir = buildDir(version);
  const scratch = `${dir}.partial`;
  rmSync(scratch, { recursive: true, force: true });
  mkdirSync(path.join(scratch, 'bin'), { recursive: true });
  // Built inside the module's own directory, so its go.mod (and every replace in it) applies as
  // upstream builds it. `nice`: the build takes minutes of every core it can get.
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
      '-o',
      path.join(scratch, 'bin') + path.sep,
      './cmd/server',
      './cmd/tools/sql',
    ],
    { cwd: module.Dir, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, GOFLAGS: '-mod=mod' } },
  );
  if (built.status !== 0)
    throw Object.assign(new Error(`go build of Temporal server ${version} failed (exit ${built.status})`), {
      code: 'GO_BUILD_FAILED',
    });
  renameSync(path.join(scratch, 'bin', 'server'), path.join(scratch, 'bin', 'temporal-server'));
  renameSync(path.join(scratch, 'bin', 'sql'), path.join(scratch, 'bin', 'temporal-sql-tool'));
  // The module cache is read-only; the copy is made writable so `rm -rf .teamrun` works for anyone.
  cpSync(path.join(module.Dir, 'schema', 'postgresql', 'v12'), path.join(scratch, 'schema', 'postgresql', 'v12'), {
    recursive: true,
  });
  makeWritable(path.join(scratch, 'schema'));
  rmSync(dir, { recursive: true, force: true });
  renameSync(scratch, dir);
  const build = paths(version);
  const mb = (file: string) => (statSync(file).size / 1e6).toFixed(1);
  log(
    `built Temporal server ${version} in ${((Date.now() - began) / 1000).toFixed(0)} s: temporal-server ${mb(build.server)} MB, temporal-sql-tool ${mb(build.sqlTool)} MB`,
  );
  return build;
}

function makeWritable(dir: string): void {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(file);
    else chmodSync(file, 0o644);
  }
}
