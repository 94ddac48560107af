/**
 * One of two processes racing on the same fenced resource (used by test/integration/fenced.test.ts).
 * Args: <db> <resource> <name> <count> <go file>. Prints "ready", waits for the go file (which
 * holds the start time) so both start together. Tokens follow that shared clock with some
 * jitter, so each process is sometimes ahead and sometimes a stale writer, as two attempts of
 * one task would be. Prints what it saw as one JSON line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { FencedStore, FencedWriteRejected } from '../../src/fenced';

const [db, resource, name, count, goFile] = process.argv.slice(2);
const store = new FencedStore(db);
const accepted: number[] = [];
const rejected: Array<{ token: number; highestSeen: number }> = [];
// Every token this process observes on the resource, in order: it must never go down.
let observed = 0;
let wentBack = 0;
// Reads that found the other process's value: proof the two really interleaved.
let sawOther = 0;
const observe = (token: number) => {
  if (token < observed) wentBack += 1;
  observed = Math.max(observed, token);
};

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

process.stdout.write('ready\n');
while (!existsSync(goFile)) pause(1);
// The go file holds the shared start time, so both processes' tokens follow one clock.
const start = Number(readFileSync(goFile, 'utf8'));
for (let i = 0; i < Number(count); i++) {
  // Pausing between writes leaves the lock free most of the time: SQLite's busy handler backs
  // off in steps of tens of ms, so a writer that keeps the lock busy would starve the other.
  pause(2 + Math.random() * 6);
  const token = 1 + (Date.now() - start) + Math.floor(Math.random() * 15);
  try {
    store.write({ resource, token, value: `${name}:${token}`, writer: name });
    accepted.push(token);
    observe(token);
  } catch (err) {
    if (!(err instanceof FencedWriteRejected)) throw err;
    rejected.push({ token, highestSeen: err.highestSeen });
    observe(err.highestSeen);
  }
  const now = store.read(resource)!;
  observe(now.token);
  if (!now.value.startsWith(`${name}:`)) sawOther += 1;
}
store.close();
process.stdout.write(`${JSON.stringify({ name, accepted, rejected, wentBack, sawOther })}\n`);
