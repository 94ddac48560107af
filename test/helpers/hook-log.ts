// Host hooks that append one JSON line per run to a file (`appendFileSync`: on disk before the hook returns, so a
// kill -9 right after leaves it there). The hooks test's in-process worker and its worker process (hooks-worker.ts)
// both use them, on one file.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { WorkerHooks } from '../../src/activities/host-hooks';

export interface HookLine {
  hook: 'beforeTask' | 'afterTask' | 'onLeaseChanged';
  /** `<key>#<fencing token>`, the attempt's activity id. */
  attempt: string;
  worker: string;
  previousFencingToken?: number;
  status?: string;
  type?: string;
  message?: string;
  output?: unknown;
}

export function loggingHooks(file: string): WorkerHooks {
  const write = (line: HookLine) => appendFileSync(file, `${JSON.stringify(line)}\n`);
  return {
    onLeaseChanged: (a) =>
      write({
        hook: 'onLeaseChanged',
        attempt: `${a.taskKey}#${a.fencingToken}`,
        worker: a.workerIdentity,
        previousFencingToken: a.previousFencingToken,
      }),
    beforeTask: (a) =>
      write({ hook: 'beforeTask', attempt: `${a.taskKey}#${a.fencingToken}`, worker: a.workerIdentity }),
    afterTask: ({ settlement, ...a }) =>
      write({
        hook: 'afterTask',
        attempt: `${a.taskKey}#${a.fencingToken}`,
        worker: a.workerIdentity,
        status: settlement.status,
        ...(settlement.status === 'failed' ? { type: settlement.type, message: settlement.message } : {}),
        ...(settlement.status === 'succeeded' ? { output: settlement.output } : {}),
      }),
  };
}

/** The file's lines: hook lines as objects, anything else (a shell's own `exec <key>#<token>`) as its text. */
export function hookLines(file: string): (HookLine | string)[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => (line.startsWith('{') ? (JSON.parse(line) as HookLine) : line));
}
