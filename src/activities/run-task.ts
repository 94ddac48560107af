import { createHash } from 'node:crypto';
import { ApplicationFailure, CancelledFailure, Context } from '@temporalio/activity';
import type { Client } from '@temporalio/client';
import type { TeamrunConfig } from '../config/config';
import { GATEWAY_UNUSED_KINDS, type AttemptGateway } from './gateway/gateway';
import type { OpenedAttempt } from './gateway/opened';
import { adoptWithinMs } from '../team/handover';
import { DETACHED, LiveAttempt, attend, type Reporting } from './attempt-runner';
import type { Adopting, AttemptStops } from './attempt-stops';
import type { Executor } from './executors';
import { defaultHeartbeatEveryMs } from './heartbeat-pace';
import {
  FAILURE_TYPES,
  expandRunTaskInput,
  failureAnchor,
  type RunTaskResult,
  type RunTaskWireInput,
  type TeamActivities,
} from './interface';
import { STOP_ANNOUNCE_AFTER_MS } from '../plan/lease-pace';
import type { LedgerRenewals } from '../ledger/renewal';
import type { Redactor } from './redact';
import type { ToolboxFactory } from './tools/types';
import type { WorkerModels } from './executors/model/provider';
import { workerRedactor } from './secrets';
import { isPlainObject } from '../team/foreign-activity';
import { extended } from '../objects';
import { stepReporter } from './step-reporter';
import { afterTaskSettle, withHostHooks, type WorkerHooks } from './host-hooks';

export interface ActivityDeps {
  config: TeamrunConfig;
  executors: Map<string, Executor>;
  workerIdentity: string;
  /** This worker's stop queue and running attempts: a long attempt announces the queue to its run. */
  stops?: AttemptStops;
  env?: NodeJS.ProcessEnv;
  /** Reaches Temporal (a shared ledger's slots are renewed through `ledgerRenewals`). */
  client?: Client;
  /** Renews the ledger slot of each running attempt whose plan names a shared ledger, with this worker's proof. */
  ledgerRenewals?: LedgerRenewals;
  /** The worker's secrets; by default the ones its config and environment name (see secrets.ts). */
  redactor?: Redactor;
  /** Lets the attempt's processes speak to the run as the attempt; its redactor adds the attempt's secret. */
  gateway?: AttemptGateway;
  /** The worker's MCP servers and custom tools, opened per attempt by the executors that call tools. */
  tools?: ToolboxFactory;
  /** Aborted once the worker begins to shut down (createWorker): agents start no new step after it. */
  stopping?: AbortSignal;
  /** The host's hooks around each attempt (`createWorker({ hooks })`, src/activities/host-hooks.ts). */
  hooks?: WorkerHooks;
  /** Models handed to createWorker({ models }), by the name tasks give them. */
  models?: WorkerModels;
}

/**
 * `runTask`: one attempt of one task. Its heartbeats are the lease: they run on their own
 * timer whatever the executor does, at the lease's pace, and none before the first is due (a
 * short attempt sends none). Cancellation arrives in the response to one, or, for an attempt
 * past `announceAfterMs` that told its run where it runs, at once through the worker's stop queue.
 * Such an attempt can also outlive its activity when its run continues as new: the next run
 * adopts it (`adoptAttempt`, see attempt-runner.ts and src/team/handover.ts).
 */
export function createActivities(deps: ActivityDeps): TeamActivities {
  const env = deps.env ?? process.env;
  const reporting = reportingOf(deps);
  return {
    async runTask(sent: RunTaskWireInput): Promise<RunTaskResult> {
      const ctx = Context.current();
      const ttlMs = ctx.info.heartbeatTimeoutMs ?? 30_000;
      // A compact input names no run: the activity's own workflow is its run (never absent for runTask).
      const activity = { workflowId: ctx.info.workflowExecution?.workflowId ?? '', activityId: ctx.info.activityId };
      const input = expandRunTaskInput(sent, activity, {
        heartbeatEveryMs: defaultHeartbeatEveryMs(ttlMs),
        announceAfterMs: STOP_ANNOUNCE_AFTER_MS,
      });
      const executor = deps.executors.get(input.executor.kind);
      if (!executor) {
        const failure = ApplicationFailure.create({
          type: FAILURE_TYPES.executorNotEnabled,
          message:
            `executor kind "${input.executor.kind}" is not enabled on ` +
            `worker ${deps.workerIdentity} (enabled: ${[...deps.executors.keys()].join(', ')})`,
          nonRetryable: true,
        });
        if (!input.proveCompletion || !deps.gateway) throw failure;
        // A governed run takes a failure only with this worker's proof too: drawn from an attempt opened for it.
        const opened = deps.gateway.open(input, { lazy: true });
        try {
          throw provenFailure(failure, opened);
        } finally {
          opened.close();
        }
      }
      // The gateway stays open while the executor runs, which may be past this activity (a handed-over attempt).
      // An agent's journal runs on the run's own queue, beside the run.
      const agent = input.executor.kind === 'agent';
      const lazy = GATEWAY_UNUSED_KINDS.has(input.executor.kind);
      const gate = deps.gateway?.open(input, agent ? { journalQueue: ctx.info.taskQueue } : { lazy });
      const attemptReporting = gate ? extended(reporting, { redactor: gate.redactor }) : reporting;
      // Steps are proven through the gateway: without one, none would be recorded, so none are sent. The kinds it
      // opens lazily are built-ins that report no steps: no reporter (and its promises) per attempt for them.
      const steps =
        deps.client && gate && !lazy ? stepReporter(deps.client, input, () => gate.stepsProof()) : undefined;
      const reported: Executor = steps ? (spec, c) => executor(spec, c).finally(() => steps.drain()) : executor;
      const { hooks } = deps;
      const hooked = hooks ? withHostHooks(reported, hooks, deps.workerIdentity) : reported;
      const live = new LiveAttempt(input, hooked, attemptReporting, env, gate, deps.tools, steps?.emit);
      if (hooks?.afterTask)
        live.settle = afterTaskSettle(hooks, input, deps.workerIdentity, live.signal, attemptReporting.redactor);
      if (gate) void live.ended.then(() => gate.close());
      const channel = deps.stops && input.announceAfterMs !== undefined ? deps.stops : undefined;
      const unregister = channel?.register(
        input.leaseId,
        () => {
          live.stop(new Error('stopped by its run'));
          // The run cancelled the attempt in the same workflow task: the answer to this heartbeat says so.
          live.beatNow();
        },
        // A run with a shared ledger never hands its attempts over (the slot's renewal lives here).
        input.ledger ? undefined : { live, keepMs: adoptWithinMs(ttlMs) + ADOPT_MARGIN_MS },
      );
      const announcing = channel
        ? setTimeout(() => channel.announce(input.workflowId, input.taskKey, input.fencingToken), input.announceAfterMs)
        : undefined;
      const stopRenewing = input.ledger ? deps.ledgerRenewals?.hold(input.ledger) : undefined;
      try {
        const everyMs = input.heartbeatEveryMs ?? defaultHeartbeatEveryMs(ttlMs);
        const handedOver = () => channel?.handedOver(input.leaseId) === true;
        const proving = input.proveCompletion && gate ? gate : null;
        const answer = await attend(ctx, live, everyMs, handedOver).catch((err: unknown) => {
          throw proving ? provenFailure(err, proving) : err;
        });
        if (answer !== DETACHED) return proving ? proven(answer, proving) : answer;
        // Handed over: the executor runs on for the next run. This activity keeps its slot while it
        // does, so the worker never runs more executors than `maxConcurrentAttempts`.
        await live.ended;
        throw handedOverFailure();
      } finally {
        clearTimeout(announcing);
        unregister?.();
        stopRenewing?.();
      }
    },
  };
}

/**
 * The result with this worker's proof of it: a one-time nonce bound to the SHA-256 of the result's JSON, which its run
 * confirms with this worker before it takes the result (a governed run: anyone with write rights on the namespace can
 * complete an activity by its ids, so a result alone is nobody's word).
 */
function proven(result: RunTaskResult, gate: OpenedAttempt): RunTaskResult {
  return extended(result, { proof: gate.completionProof(sha256Hex(JSON.stringify(result))) });
}

/**
 * The failure (or cancellation) with this worker's proof of it in its evidence (details[0]), bound to
 * `failureAnchor`: a governed run takes a failure only once its worker confirms it, as it does a result (anyone can
 * fail an activity by its ids, with any usage as its evidence). Anything else thrown becomes the failure the SDK
 * would have made of it.
 */
function provenFailure(err: unknown, gate: OpenedAttempt): ApplicationFailure | CancelledFailure {
  // The evidence as sent (an object, without the proof) is what the proof is bound to.
  const shown = (details: unknown[] | undefined | null) => ({ ...(isPlainObject(details?.[0]) ? details[0] : {}) });
  if (err instanceof CancelledFailure) {
    const evidence = shown(err.details);
    const proof = gate.completionProof(sha256Hex(failureAnchor({ cancelled: true, evidence })));
    return new CancelledFailure(err.message, [{ ...evidence, proof }], err.cause);
  }
  const failure =
    err instanceof ApplicationFailure
      ? err
      : ApplicationFailure.create({
          message: err instanceof Error ? err.message : String(err),
          type: err instanceof Error ? err.name : 'Error',
        });
  const evidence = shown(failure.details);
  const { message } = failure;
  const type = failure.type ?? null;
  const nonRetryable = failure.nonRetryable === true;
  const proof = gate.completionProof(
    sha256Hex(failureAnchor({ cancelled: false, type, message, nonRetryable, evidence })),
  );
  return ApplicationFailure.create({
    message,
    type: type ?? undefined,
    nonRetryable,
    details: [{ ...evidence, proof }, ...(failure.details ?? []).slice(1)],
    cause: failure.cause,
  });
}

const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

/** Past `adoptWithinMs`, a handed-over executor waits this much longer before it is stopped. */
const ADOPT_MARGIN_MS = 5_000;

/** Answers the old run's activity of an attempt a later run adopted: that run has it now; this answer goes nowhere. */
function handedOverFailure(): CancelledFailure {
  return new CancelledFailure('attempt handed over to the run that continued this one');
}

function reportingOf(deps: ActivityDeps): Reporting {
  // Everything an attempt reports reaches history, read by all who can see the namespace: secrets never do.
  return {
    config: deps.config,
    workerIdentity: deps.workerIdentity,
    redactor: deps.redactor ?? workerRedactor(deps.config, deps.env ?? process.env),
    ...(deps.stopping ? { stopping: deps.stopping } : {}),
    ...(deps.models ? { models: deps.models } : {}),
  };
}

/**
 * How this worker attends an attempt the next run adopts (`adoptAttempt` on its stop queue): as
 * runTask did, heartbeating for the new run. It lets go in turn when that run continues as new.
 */
export function adoptingFor(stops: AttemptStops): Adopting {
  return async (ctx, live, input) => {
    let detached = false;
    try {
      const handedOver = () => stops.handedOver(input.leaseId);
      const proving = (input.proveCompletion || live.input.proveCompletion) && live.gate ? live.gate : null;
      const answer = await attend(ctx, live, input.heartbeatEveryMs, handedOver).catch((err: unknown) => {
        throw proving ? provenFailure(err, proving) : err;
      });
      detached = answer === DETACHED;
      if (answer === DETACHED) throw handedOverFailure();
      return proving ? proven(answer, proving) : answer;
    } finally {
      // A later adopt holds the attempt now: only the last one to attend it releases it.
      if (!detached) stops.release(input.leaseId, live);
    }
  };
}
