/**
 * A span per task, from its claim to its settlement, under the run's span, with each attempt's
 * activity scheduled beneath it (so the attempt's span, on whichever worker runs it, is the
 * task's grandchild). Through the OpenTelemetry API only: with a worker whose bundle lacks
 * Temporal's workflow interceptors, no tracer is registered in the sandbox and nothing here is
 * kept. A span issues no command; its ids come from the workflow's seeded random source, so a
 * replay re-creates it as it was, and the interceptors export a span only when it ends live.
 *
 * A span covers one run of a continue-as-new chain: a task still open at the hand-over ends
 * there (`teamrun.task.continued`), and the next run opens it again at its next claim or adoption.
 */
import { context, trace, SpanStatusCode, type Span } from '@opentelemetry/api';
import { OI } from '../telemetry/openinference';

interface OpenTask {
  span: Span;
  attempts: number;
}

export class TaskSpans {
  private readonly open = new Map<string, OpenTask>();

  constructor(private readonly workflowId: string) {}

  /**
   * Runs `launch` (which schedules the attempt's activity) with the task's span active, opening
   * the span at the task's first attempt in this run.
   */
  within<T>(task: { key: string; executor: { kind: string } }, launch: () => T, adopted = false): T {
    let open = this.open.get(task.key);
    if (!open) {
      const span = trace.getTracer('teamrun').startSpan(`task ${task.key}`, {
        attributes: {
          'teamrun.run_id': this.workflowId,
          'teamrun.task.key': task.key,
          'teamrun.executor.kind': task.executor.kind,
          [OI.spanKind]: 'CHAIN',
          ...(adopted ? { 'teamrun.task.carried': true } : {}),
        },
      });
      // Tracing off: the API's no-op span; keep nothing.
      if (!span.isRecording()) return launch();
      open = { span, attempts: 0 };
      this.open.set(task.key, open);
    }
    open.attempts++;
    return context.with(trace.setSpan(context.active(), open.span), launch);
  }

  /** The task settled for good (`outcome`, as `teamrun_tasks_settled` counts it) at `at`. */
  settled(key: string, outcome: string, at: number): void {
    const open = this.open.get(key);
    if (!open) return;
    this.open.delete(key);
    open.span.setAttributes({ 'teamrun.outcome': outcome, 'teamrun.attempts': open.attempts });
    if (outcome === 'failed') open.span.setStatus({ code: SpanStatusCode.ERROR });
    open.span.end(at);
  }

  /** Ends the spans still open: at a hand-over (the next run opens them again) or as the run closes. */
  endAll(at: number, handingOver: boolean): void {
    for (const [key, open] of this.open) {
      open.span.setAttributes({
        'teamrun.attempts': open.attempts,
        ...(handingOver ? { 'teamrun.task.continued': true } : { 'teamrun.outcome': 'unsettled' }),
      });
      open.span.end(at);
      this.open.delete(key);
    }
  }
}
