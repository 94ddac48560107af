/**
 * Sends the aborts of the runs a coordinating attempt started (src/team/coordinated.ts) once it ended: the run's
 * own `abortRun` signal, with the code and reason naming the coordinator task (a Temporal cancellation carries no
 * reason), then Temporal's cancellation, which ends a run whose governance refused the abort. The run waits for every
 * abort it sent before it closes or hands over.
 */
import { getExternalWorkflowHandle, patched } from '@temporalio/workflow';
import { LINKED_RUNS_PATCH } from '../team/coordinated';
import type { TeamRun } from '../team/run';
import { abortRunSignal } from './messages';

export class LinkedRunAborts {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly run: TeamRun) {}

  /** Sends the aborts queued since the last call; each one's fate is an event of the run. */
  send(): void {
    const ends = this.run.drainLinkEnds();
    if (ends.length === 0 || !patched(LINKED_RUNS_PATCH)) return;
    for (const { runs, abort } of ends) {
      for (const { runId, actor } of runs) {
        const recorded = (sent: boolean, why?: string) =>
          this.run.record('task:linked-run-aborted', Date.now(), {
            runId,
            code: abort.code,
            sent,
            ...(why ? { why: why.slice(0, 500) } : {}),
          });
        const handle = getExternalWorkflowHandle(runId);
        // The abort first (its code and reason win), then Temporal's cancellation, which no governance refuses: a run
        // whose operators do not list the coordinator's actor still ends. One already closed refuses both.
        const sending = handle
          .signal(abortRunSignal, { ...abort, ...(actor ? { actor } : {}) })
          .then(() => handle.cancel().catch(() => undefined))
          .then(
            () => recorded(true),
            (err: unknown) => recorded(false, err instanceof Error ? err.message : String(err)),
          )
          .finally(() => this.pending.delete(sending));
        this.pending.add(sending);
      }
    }
  }

  /** Resolves once every abort sent so far was delivered or refused. */
  async sent(): Promise<void> {
    this.send();
    while (this.pending.size > 0) await Promise.all(this.pending);
  }
}
