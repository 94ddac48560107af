import { execFileSync, spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { inject, onTestFinished } from 'vitest';
import { FencedStore, FencedWriteRejected } from '../../src/fenced';
import { waitFor, type WorkerProcess } from '../helpers/env';

const root = path.resolve(__dirname, '..', '..');
const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * A worker "host": a network namespace the test creates, joined to this one by a veth pair on a
 * private /30 (10.250.x.0/30: .1 here, .2 inside). 127.0.0.1 is not reachable across namespaces,
 * so the frontend is reached through a TCP forwarder on the host side's .1 address (Temporal's
 * frontend binds one IP; it stays on 127.0.0.1). Traffic goes only between these two addresses.
 */
export interface Host {
  name: string;
  namespace: string;
  /** This side of the veth pair (the cluster's side). */
  hostIp: string;
  /** The namespace's side. */
  nsIp: string;
  /** The frontend as the namespace reaches it. */
  frontend: string;
  /** Link down inside the namespace: its processes keep running, nothing they send arrives. */
  cut(): void;
  restore(): void;
}

let created = 0;

/** Creates a host; it is removed (namespace, veth pair, forwarder) when the test ends. */
export async function createHost(name: string, frontendPort: number): Promise<Host> {
  const index = created++;
  const tag = `${process.pid % 100_000}${index}`;
  const namespace = `teamrun-${tag}`;
  const hostIf = `trh${tag}`;
  const nsIf = `trn${tag}`;
  // One /30 per host: the third octet from this process's pid and the host's index.
  const octet = ((process.pid % 100) * 2 + index) % 250;
  const hostIp = `10.250.${octet}.1`;
  const nsIp = `10.250.${octet}.2`;
  ip('netns', 'add', namespace);
  onTestFinished(() => {
    ip('netns', 'del', namespace);
  });
  ip('link', 'add', hostIf, 'type', 'veth', 'peer', 'name', nsIf);
  onTestFinished(() => {
    // Deleting one end deletes the pair; the namespace's end may be gone with the namespace.
    try {
      ip('link', 'del', hostIf);
    } catch {
      // Already gone.
    }
  });
  ip('link', 'set', nsIf, 'netns', namespace);
  ip('addr', 'add', `${hostIp}/30`, 'dev', hostIf);
  ip('link', 'set', hostIf, 'up');
  ip('-n', namespace, 'addr', 'add', `${nsIp}/30`, 'dev', nsIf);
  ip('-n', namespace, 'link', 'set', nsIf, 'up');
  ip('-n', namespace, 'link', 'set', 'lo', 'up');
  const forwarder = await forward(hostIp, frontendPort, '127.0.0.1', frontendPort);
  onTestFinished(() => forwarder.close());
  return {
    name,
    namespace,
    hostIp,
    nsIp,
    frontend: `${hostIp}:${frontendPort}`,
    cut: () => ip('-n', namespace, 'link', 'set', nsIf, 'down'),
    restore: () => {
      ip('-n', namespace, 'link', 'set', nsIf, 'up');
    },
  };
}

/** A plain TCP forwarder: listens on `listenHost:listenPort`, connects each client to `toHost:toPort`. */
function forward(
  listenHost: string,
  listenPort: number,
  toHost: string,
  toPort: number,
): Promise<{ close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(toPort, toHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, listenHost, () =>
      resolve({
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    );
  });
}

/** A teamrun worker process inside `host`'s namespace, talking to the frontend through the veth pair. */
export async function spawnWorkerIn(
  host: Host,
  options: { taskQueue: string; identity: string; config: string },
): Promise<WorkerProcess> {
  const child = spawn(
    'ip',
    ['netns', 'exec', host.namespace, process.execPath, '--import', 'tsx', path.join(root, 'src/worker/main.ts')],
    {
      cwd: root,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: host.frontend,
        TEAMRUN_TASK_QUEUE: options.taskQueue,
        TEAMRUN_WORKER_IDENTITY: options.identity,
        TEAMRUN_WORKFLOW_BUNDLE: inject('workflowBundle'),
        TEAMRUN_CONFIG: options.config,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  onTestFinished(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exited;
    }
  });
  await waitFor(
    `worker ${options.identity} in ${host.namespace} to start`,
    () => {
      if (child.exitCode !== null) throw new Error(`worker exited: ${out}`);
      return out.includes('teamrun worker ready');
    },
    90_000,
  );
  return { child, identity: options.identity, output: () => out, exited };
}

/**
 * A fenced resource on the network: an HTTP server in front of a FencedStore, on each host's
 * side of its veth pair. POST /write {resource, token, value, writer}: 200 when accepted, 409
 * with the highest token seen when the writer is stale.
 */
export async function fencedService(dbFile: string, hosts: Host[], port: number): Promise<{ store: FencedStore }> {
  const store = new FencedStore(dbFile);
  const handler: http.RequestListener = (req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      try {
        const write = JSON.parse(body) as { resource: string; token: number; value: string; writer: string };
        store.write(write);
        res.writeHead(200).end(JSON.stringify({ ok: true }));
      } catch (err) {
        if (!(err instanceof FencedWriteRejected)) {
          res.writeHead(400).end(JSON.stringify({ error: String(err) }));
          return;
        }
        res
          .writeHead(409)
          .end(JSON.stringify({ code: 'FENCED_WRITE_REJECTED', highestSeen: err.highestSeen, message: err.message }));
      }
    });
  };
  const servers = await Promise.all(
    hosts.map(
      (host) =>
        new Promise<http.Server>((resolve, reject) => {
          const server = http.createServer(handler);
          server.once('error', reject);
          server.listen(port, host.hostIp, () => resolve(server));
        }),
    ),
  );
  onTestFinished(async () => {
    await Promise.all(servers.map((s) => new Promise<void>((done) => s.close(() => done()))));
    store.close();
  });
  return { store };
}

/** The host's outbox (test/cluster/outbox.mjs) in its namespace, delivering fenced writes queued in `spool`. */
export async function startOutbox(host: Host, fencePort: number, spool: string): Promise<void> {
  const child = spawn(
    'ip',
    ['netns', 'exec', host.namespace, process.execPath, path.join(__dirname, 'outbox.mjs'), String(fencePort), spool],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (out += d));
  onTestFinished(() => {
    child.kill('SIGKILL');
  });
  await waitFor(
    `the outbox of host ${host.name}`,
    () => {
      if (child.exitCode !== null) throw new Error(`outbox exited: ${out}`);
      return out.includes('outbox ready');
    },
    30_000,
  );
}
