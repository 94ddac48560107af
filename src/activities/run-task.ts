import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { TeamrunConfig } from '../config/config';
import { ADD_TASKS_LIMITS } from '../plan/schema';
import type { AttemptGateway } from './attempt-gateway';
import type { AttemptStops } from './attempt-stops';
import { ExecutorError, type Executor, type ExecutorResult } from './executors';
import { defaultHeartbeatEveryMs, paceHeartbeats } from './heartbeat-pace';
import {
  FAILURE_TYPES,
  MAX_OUTPUT_BYTES,
  MAX_SPAWN_BYTES,
  type AttemptEvidence,
  type HeartbeatDetails,
  type RunTaskInput,
  type RunTaskResult,
  type TeamActivities,
} from './interface';
import { renewLedgerSlot } from './ledger-renewal';
import { priceUsage } from './pricing';
import type { Redactor } from './redact';
import { workerRedactor } from './secrets';

export interface ActivityDeps {
  config: TeamrunConfig;
  executors: Map<string, Executor>;
  workerIdentity: string;
  /** This worker's stop queue and running attempts: a long attempt announces the queue to its run. */
  stops?: AttemptStops;
  env?: NodeJS.ProcessEnv;
  /** Reaches a shared ledger, to renew the slot of an attempt whose plan names one. */
  client?: Client;
  /** The worker's secrets; by default the ones its config and environment name (see secrets.ts). */
  redactor?: Redactor;
  /** Lets the attempt's processes speak to the run as the attempt; its redactor adds the attempt's secret. */
  gateway?: AttemptGateway;
}

/**
 * `runTask`: one attempt of one task. Its heartbeats are the lease: they run on their own
 * timer whatever the executor does, at the lease's pace, and none before the first is due (a
 * short attempt sends none). Cancellation arrives in the response to one, or, for an attempt
 * past `announceAfterMs` that told its run where it runs, at once through the worker's stop queue.
 */
export function createActivities(deps: ActivityDeps): TeamActivities {
  const env = deps.env ?? process.env;
  // Everything an attempt reports reaches history, read by all who can see the namespace: secrets never do.
  const workerRedaction = deps.redactor ?? workerRedactor(deps.config, env);
  return {
    async runTask(input: RunTaskInput): Promise<RunTaskResult> {
      const ctx = Context.current();
      const gate = deps.gateway?.open(input);
      const redactor = gate?.redactor ?? workerRedaction;
      const started = Date.now();
      let progress: unknown;
      const beat = () =>
        ctx.heartbeat({
          workerIdentity: deps.workerIdentity,
          fencingToken: input.fencingToken,
          elapsedMs: Date.now() - started,
          progress: redactor.deep(progress),
        } satisfies HeartbeatDetails);
      const heartbeats = paceHeartbeats(
        beat,
        input.heartbeatEveryMs ?? defaultHeartbeatEveryMs(ctx.info.heartbeatTimeoutMs ?? 30_000),
      );
      // What the executor obeys: the SDK's cancellation, or a stop delivered on this worker's stop queue.
      const stop = new AbortController();
      const cancelled = () => stop.abort(ctx.cancellationSignal.reason);
      ctx.cancellationSignal.addEventListener('abort', cancelled, { once: true });
      const channel = deps.stops && input.announceAfterMs !== undefined ? deps.stops : undefined;
      const unregister = channel?.register(input.leaseId, () => {
        stop.abort(new Error('stopped by its run'));
        // The run cancelled the attempt in the same workflow task: the answer to this heartbeat says so.
        heartbeats.now();
      });
      const announcing = channel
        ? setTimeout(() => channel.announce(input.workflowId, input.taskKey, input.fencingToken), input.announceAfterMs)
        : undefined;
      const stopRenewing = input.ledger && deps.client ? renewLedgerSlot(deps.client, input.ledger) : undefined;
      const evidence = (reported: ExecutorResult = {}, withOutput = true): AttemptEvidence => ({
        ...reportable(reported, redactor, deps.config.prices, withOutput),
        workerIdentity: deps.workerIdentity,
      });
      try {
        const executor = deps.executors.get(input.executor.kind);
        if (!executor) {
          throw ApplicationFailure.create({
            type: FAILURE_TYPES.executorNotEnabled,
            message:
              `executor kind "${input.executor.kind}" is not enabled on ` +
              `worker ${deps.workerIdentity} (enabled: ${[...deps.executors.keys()].join(', ')})`,
            nonRetryable: true,
          });
        }
        let result;
        try {
          result = await executor(input.executor, {
            signal: stop.signal,
            workflowId: input.workflowId,
            taskKey: input.taskKey,
            attempt: input.attempt,
            fencingToken: input.fencingToken,
            leaseId: input.leaseId,
            holder: input.holder,
            dependencyOutputs: input.dependencyOutputs,
            inbox: input.inbox ?? [],
            allowSpawn: input.allowSpawn === true,
            progress: (details) => {
              progress = details;
            },
            config: deps.config,
            env,
            redactor,
            ...(gate ? { attemptGateway: gate.access } : {}),
          });
        } catch (err) {
          if (stop.signal.aborted)
            throw await stopped(ctx, evidence(err instanceof ExecutorError ? err : {}), heartbeats);
          throw err;
        }
        // A result that races a cancellation is evidence for a human, never a success.
        if (stop.signal.aborted) throw await stopped(ctx, evidence(result), heartbeats);
        const reported = evidence(result);
        const size = reported.output === undefined ? 0 : Buffer.byteLength(JSON.stringify(reported.output));
        if (size > MAX_OUTPUT_BYTES) {
          throw ApplicationFailure.create({
            type: FAILURE_TYPES.outputTooLarge,
            message:
              `task output is ${size} bytes, over the ${MAX_OUTPUT_BYTES}-byte bound (outputs travel ` +
              `through history to dependents; store large results elsewhere and output a reference)`,
            nonRetryable: true,
            details: [evidence(result, false)],
          });
        }
        if (result.tasks?.length) {
          const spawnSize = Buffer.byteLength(JSON.stringify(result.tasks));
          if (spawnSize > MAX_SPAWN_BYTES || result.tasks.length > ADD_TASKS_LIMITS.maxTasks) {
            throw ApplicationFailure.create({
              type: FAILURE_TYPES.outputTooLarge,
              message:
                `the attempt asked to add ${result.tasks.length} task(s) in ${spawnSize} ` +
                `bytes, over the bound (${ADD_TASKS_LIMITS.maxTasks} tasks, ${MAX_SPAWN_BYTES} ` +
                `bytes); add them in several requests with teamrun add-tasks`,
              nonRetryable: true,
              details: [evidence(result, false)],
            });
          }
          // Redacted like everything else an attempt reports: a command it prints may hold a secret it read.
          return { ...reported, tasks: redactor.deep(result.tasks) };
        }
        return reported;
      } catch (err) {
        if (err instanceof ApplicationFailure || err instanceof CancelledFailure) throw err;
        if (err instanceof ExecutorError) {
          throw ApplicationFailure.create({
            type: err.type,
            message: redactor.text(err.message),
            nonRetryable: err.nonRetryable,
            details: [evidence(err)],
          });
        }
        throw ApplicationFailure.create({
          type: 'TeamExecutorCrashed',
          message: redactor.text(`executor "${input.executor.kind}" threw: ${(err as Error)?.message ?? String(err)}`),
          details: [evidence()],
        });
      } finally {
        heartbeats.stop();
        clearTimeout(announcing);
        unregister?.();
        gate?.close();
        ctx.cancellationSignal.removeEventListener('abort', cancelled);
        stopRenewing?.();
      }
    },
  };
}

/** What an attempt reports, priced (each usage record on its own) and redacted; absent fields left out. */
function reportable(
  reported: ExecutorResult,
  redactor: Redactor,
  prices: TeamrunConfig['prices'],
  withOutput: boolean,
): Omit<AttemptEvidence, 'workerIdentity'> {
  const usage = priceUsage(redactor.deep(reported.usage), prices);
  return {
    ...(withOutput && reported.output !== undefined ? { output: redactor.deep(reported.output) } : {}),
    ...(usage ? { usage } : {}),
    ...(reported.logs ? { logs: redactor.deep(reported.logs) } : {}),
    ...(reported.links?.length ? { links: redactor.deep(reported.links) } : {}),
    ...(reported.messages?.length ? { messages: redactor.deep(reported.messages) } : {}),
  };
}

/** How long a locally stopped attempt waits for the server to confirm its cancellation before it gives up waiting. */
const CANCEL_CONFIRM_MS = 10_000;

/**
 * The attempt was stopped from outside. A worker shutting down hands it back to be re-leased;
 * anything else (the workflow cancelled it, the server timed it out) is a cancellation. A stop
 * that came on the stop queue has already killed the executor; the attempt then reports as
 * cancelled once the heartbeat it sent brings the cancellation the run requested with the stop.
 */
async function stopped(ctx: Context, evidence: AttemptEvidence, heartbeats: { now(): void }): Promise<Error> {
  if (!ctx.cancellationSignal.aborted) {
    const deadline = Date.now() + CANCEL_CONFIRM_MS;
    while (!ctx.cancellationSignal.aborted && Date.now() < deadline) {
      heartbeats.now();
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 500);
        ctx.cancellationSignal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
      });
    }
  }
  const why = ctx.cancellationDetails;
  // Logged (with the activity id, `<key>#<token>`) because nobody
  // else hears a lost attempt: the server refuses what it reports.
  ctx.log.warn(
    why?.workerShutdown
      ? 'attempt released: the worker is shutting down, the task will be leased again'
      : why?.notFound || why?.timedOut
        ? 'attempt lost its lease: the server no longer has it ' +
          '(heartbeats stopped past the TTL); its result is discarded'
        : 'attempt cancelled by its run',
  );
  if (why?.workerShutdown) {
    return ApplicationFailure.create({
      type: FAILURE_TYPES.workerShutdown,
      message: `worker ${evidence.workerIdentity} is shutting down; the attempt is released`,
      details: [evidence],
    });
  }
  return new CancelledFailure('attempt cancelled', [evidence]);
}
