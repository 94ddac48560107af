import { chmodSync, cpSync, existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../src/devserver/binary';
import { goBuild } from '../../src/devserver/go-build';

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
  const began = Date.now();
  const dir = buildDir(version);
  const { scratch, moduleDir } = goBuild({
    what: 'Temporal server',
    module: 'go.temporal.io/server',
    version,
    packages: ['./cmd/server', './cmd/tools/sql'],
    dir,
    output: (bin) => bin + path.sep,
    fail: (code, message) => Object.assign(new Error(message), { code }),
    log,
    // A test rig: the build is what a fresh machine's CI waits on, and the tests run no slower unoptimized
    // (measured: docs/deploy.md).
    unoptimized: true,
  });
  renameSync(path.join(scratch, 'bin', 'server'), path.join(scratch, 'bin', 'temporal-server'));
  renameSync(path.join(scratch, 'bin', 'sql'), path.join(scratch, 'bin', 'temporal-sql-tool'));
  // The module cache is read-only; the copy is made writable so `rm -rf .teamrun` works for anyone.
  cpSync(path.join(moduleDir, 'schema', 'postgresql', 'v12'), path.join(scratch, 'schema', 'postgresql', 'v12'), {
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
