// Usage (inside a test host, a network namespace with one veth end at 10.250.x.2):
//   node outbox.mjs <port> <spool dir>
// A host's outbox, as a write-behind queue or a sidecar would be: an attempt drops a fenced write
// into <spool dir> as <name>.json ({resource, token, value}) and may end; the outbox POSTs it to
// the fenced resource at 10.250.x.1:<port> over this host's link, as writer "10.250.x.2",
// retrying while the network does not answer, and writes "<http status> <body>" to <name>.out.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const [port, spool] = process.argv.slice(2);
// From `ip`, not os.networkInterfaces(): that one leaves out a link that is down.
const own = /inet (10\.250\.\d+\.2)\//.exec(
  execFileSync('ip', ['-o', '-4', 'addr', 'show'], { encoding: 'utf8' }),
)?.[1];
if (!own) throw new Error('outbox: no 10.250.x.2 address here: not inside a test host');
const url = `http://${own.replace(/\.2$/, '.1')}:${port}/write`;
mkdirSync(spool, { recursive: true });
process.stdout.write(`outbox ready: ${own} -> ${url}\n`);

const pause = (ms) => new Promise((r) => setTimeout(r, ms));
for (;;) {
  const next = readdirSync(spool).find((f) => f.endsWith('.json'));
  if (!next) {
    await pause(50);
    continue;
  }
  const file = path.join(spool, next);
  const { resource, token, value } = JSON.parse(readFileSync(file, 'utf8'));
  for (;;) {
    try {
      const res = await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ resource, token, value, writer: own }),
        signal: AbortSignal.timeout(2_000),
      });
      const answer = file.replace(/\.json$/, '.out');
      writeFileSync(`${answer}.tmp`, `${res.status} ${await res.text()}`);
      renameSync(`${answer}.tmp`, answer);
      break;
    } catch {
      await pause(200);
    }
  }
  rmSync(file);
}
