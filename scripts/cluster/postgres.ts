import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * A PostgreSQL of the cluster's own: Debian's binaries run directly (initdb, pg_ctl) on a data
 * dir under `.teamrun/cluster/`, on 127.0.0.1 only, never as a system service. PostgreSQL
 * refuses to run as root, so as root every command runs as the `postgres` user Debian creates.
 */
export interface Postgres {
  dir: string;
  port: number;
  user: string;
  password: string;
}

function binDir(): string {
  if (process.env.TEAMRUN_PG_BIN) return process.env.TEAMRUN_PG_BIN;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => /^\d+$/.test(v))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw Object.assign(
      new Error(`no PostgreSQL in ${root}: install Debian's "postgresql" package (or set TEAMRUN_PG_BIN)`),
      {
        code: 'POSTGRES_NOT_FOUND',
      },
    );
  }
  return path.join(root, versions[0], 'bin');
}

const asRoot = () => process.getuid?.() === 0;

function run(pg: Postgres, tool: string, args: string[], what: string): string {
  const binary = path.join(binDir(), tool);
  const [command, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', binary, ...args]] : [binary, args];
  const result = spawnSync(command, argv, { encoding: 'utf8', cwd: pg.dir });
  if (result.status !== 0) {
    throw Object.assign(
      new Error(
        `${what} failed (${tool} exit ${result.status}): ${result.stderr || result.stdout}; log: ${logFile(pg)}`,
      ),
      {
        code: 'POSTGRES_FAILED',
      },
    );
  }
  return result.stdout;
}

const dataDir = (pg: Postgres) => path.join(pg.dir, 'data');
const logFile = (pg: Postgres) => path.join(pg.dir, 'postgres.log');

/** Creates the data dir once: a superuser `user` with a password, which TCP connections must give. */
export function initPostgres(pg: Postgres): void {
  if (existsSync(path.join(dataDir(pg), 'PG_VERSION'))) return;
  mkdirSync(pg.dir, { recursive: true });
  const pwfile = path.join(pg.dir, 'pwfile');
  writeFileSync(pwfile, `${pg.password}\n`, { mode: 0o600 });
  if (asRoot()) {
    const passwd = readFileSync('/etc/passwd', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('postgres:'));
    if (!passwd)
      throw Object.assign(
        new Error('running as root needs the "postgres" user (Debian\'s postgresql package creates it)'),
        { code: 'POSTGRES_NOT_FOUND' },
      );
    const [, , uid, gid] = passwd.split(':').map(Number);
    chownSync(pg.dir, uid, gid);
    chownSync(pwfile, uid, gid);
  }
  run(
    pg,
    'initdb',
    [
      '-D',
      dataDir(pg),
      '-U',
      pg.user,
      `--pwfile=${pwfile}`,
      '--auth-host=scram-sha-256',
      '--auth-local=trust',
      '-E',
      'UTF8',
      '--locale=C',
    ],
    'initdb',
  );
  rmSync(pwfile);
}

export function startPostgres(pg: Postgres): void {
  // Sockets in its own dir, not /var/run/postgresql; TCP on 127.0.0.1 only.
  const options = `-p ${pg.port} -k ${pg.dir} -c listen_addresses=127.0.0.1 -c max_connections=200 -c fsync=on`;
  run(
    pg,
    'pg_ctl',
    ['start', '-w', '-t', '60', '-D', dataDir(pg), '-l', logFile(pg), '-o', options],
    'starting PostgreSQL',
  );
}

/** `immediate` is a crash as far as the data goes (recovery replays the WAL at the next start); `fast` is a clean stop. */
export function stopPostgres(pg: Postgres, mode: 'fast' | 'immediate' = 'fast'): void {
  if (!postgresRunning(pg)) return;
  run(pg, 'pg_ctl', ['stop', '-w', '-t', '60', '-m', mode, '-D', dataDir(pg)], 'stopping PostgreSQL');
}

export function postgresRunning(pg: Postgres): boolean {
  if (!existsSync(path.join(dataDir(pg), 'postmaster.pid'))) return false;
  const binary = path.join(binDir(), 'pg_ctl');
  const [command, argv] = asRoot()
    ? ['runuser', ['-u', 'postgres', '--', binary, 'status', '-D', dataDir(pg)]]
    : [binary, ['status', '-D', dataDir(pg)]];
  return spawnSync(command, argv, { encoding: 'utf8' }).status === 0;
}
