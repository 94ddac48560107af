import { SingleBar } from 'cli-progress';
import type { StatusView as RunStatusView } from '../contract';
import { count, ofLimit, usd } from '../format';

/** The part of the `status` query a progress display reads (a run result can supply it too). */
export type ProgressInput = Pick<RunStatusView, 'state' | 'stats' | 'budget' | 'pendingAdjudications'>;

/** What a progress display shows of a run: settled tasks out of all, and the rest as one line. */
export interface ProgressParts {
  done: number;
  total: number;
  detail: string;
}

export function progressParts(status: ProgressInput): ProgressParts {
  const { stats, budget } = status;
  const limit = (max: number | undefined, show: (n: number) => string) => (max === undefined ? null : show(max));
  const detail = [
    `${stats.running} running`,
    `${stats.failed} failed`,
    `${status.pendingAdjudications} in adjudication`,
    `${ofLimit(count(budget.used.tokens), limit(budget.limits.maxTokens, count))} tokens`,
    ofLimit(usd(budget.used.usd), limit(budget.limits.maxUsd, usd)),
  ];
  if (status.state !== 'running') detail.push(status.state.replace(/_/g, ' '));
  if (budget.stopped) detail.push(`budget stopped: ${budget.reason}`);
  return { done: stats.succeeded + stats.failed + stats.skipped, total: stats.total, detail: detail.join(' · ') };
}

/** The progress of a run as one line of text (what the plain display prints). */
export function progressText(status: ProgressInput): string {
  const { done, total, detail } = progressParts(status);
  return `${done}/${total} done · ${detail}`;
}

export interface Progress {
  update(status: ProgressInput): void;
  /** A line under the counts (an agent's step): above the bar on a terminal, as it comes otherwise. */
  log(line: string): void;
  /** Ends the display; the bar stays on screen with its last values. */
  stop(): void;
}

export interface ProgressOptions {
  stream?: NodeJS.WriteStream;
  /** Plain lines even on a terminal (false); default: the live bar when `stream` is a TTY. */
  live?: boolean;
  /** Plain mode prints a changed line at most this often (default 1000 ms), so logs stay short. */
  plainIntervalMs?: number;
}

/**
 * Shows a run's progress: a live bar redrawn in place on a terminal; otherwise (CI logs, pipes)
 * plain lines, printed only when something changed.
 */
export function createProgress(options: ProgressOptions = {}): Progress {
  const stream = options.stream ?? process.stderr;
  const live = options.live ?? Boolean(stream.isTTY);
  return live ? liveProgress(stream) : plainProgress(stream, options.plainIntervalMs ?? 1_000);
}

function liveProgress(stream: NodeJS.WriteStream): Progress {
  const bar = new SingleBar({
    stream,
    format: '{bar} {value}/{total} done · {detail}',
    barsize: 24,
    barCompleteChar: '█',
    barIncompleteChar: '░',
    hideCursor: true,
  });
  let started = false;
  return {
    log(line) {
      // The bar is the last line: clear it, print the line, and draw the bar again below it.
      stream.write(started ? `\r\u001b[2K${line}\n` : `${line}\n`);
      if (started) bar.render();
    },
    update(status) {
      const { done, total, detail } = progressParts(status);
      if (!started) {
        bar.start(total, done, { detail });
        started = true;
        return;
      }
      bar.setTotal(total);
      bar.update(done, { detail });
    },
    stop() {
      if (started) bar.stop();
    },
  };
}

function plainProgress(stream: NodeJS.WriteStream, intervalMs: number): Progress {
  let printed = '';
  let pending = '';
  let printedAt = 0;
  // A step line printed after the counts: the counts are printed again when watching ends, so they close it.
  let below = false;
  const print = (line: string) => {
    stream.write(`${line}\n`);
    printed = line;
    printedAt = Date.now();
    below = false;
  };
  return {
    log(line) {
      stream.write(`${line}\n`);
      below = true;
    },
    update(status) {
      pending = progressText(status);
      if (pending !== printed && Date.now() - printedAt >= intervalMs) print(pending);
    },
    stop() {
      if (pending && (pending !== printed || below)) print(pending);
    },
  };
}
