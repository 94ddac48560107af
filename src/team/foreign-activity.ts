/**
 * Owns the `activity` executor kind: the input a foreign activity gets, its options, and how its
 * result or failure becomes an attempt outcome. Pure; the workflow schedules what it says and the
 * run settles the outcome like any other.
 */
import type { FailureType } from '../contract';
import { FAILURE_TYPES, MAX_OUTPUT_BYTES, type AttemptIdentity } from '../activities/interface';
import { jsonBytes, UsageSchema, type ActivityExecutorSpec, type Usage } from '../plan/schema';
import type { AttemptOutcome, Claim } from './types';

/**
 * The `activity` executor kind: a task whose attempt is any Temporal activity, in any SDK
 * language, on a task queue of its own (docs/activities.md). These are its rules; the workflow
 * only schedules what they say.
 */

/** The one argument a foreign activity receives: language-neutral JSON. */
export interface ForeignActivityInput extends AttemptIdentity {
  /** The executor's `input`, or null when the plan gives none. */
  input: unknown;
  dependencyOutputs: Record<string, unknown>;
  /** Mailbox messages waiting for the task when the attempt started (absent when none). */
  inbox?: Claim['inbox'];
}

export interface ForeignActivityOptions {
  activityType: string;
  taskQueue: string;
  /** The lease: present unless the task says `heartbeat: "optional"`. */
  heartbeatTimeoutMs?: number;
  startToCloseTimeoutMs: number;
}

/** Error types of foreign attempts the run refuses. */
export const FOREIGN_FAILURE_TYPES = {
  invalidUsage: 'TeamInvalidUsage',
} as const satisfies Record<string, FailureType>;

/** Bound on an attempt that heartbeats and gives no `startToCloseMs`: the lease is what notices a dead worker. */
const UNBOUNDED_ATTEMPT_MS = 30 * 24 * 3600_000;
const MAX_MESSAGE_CHARS = 4_000;
const MAX_NAME_CHARS = 200;

export function isForeignActivity(claim: Pick<Claim, 'executor'>): boolean {
  return claim.executor.kind === 'activity';
}

function specOf(claim: Pick<Claim, 'executor'>): ActivityExecutorSpec {
  return claim.executor as unknown as ActivityExecutorSpec;
}

export function foreignActivityInput(workflowId: string, claim: Claim): ForeignActivityInput {
  return {
    workflowId,
    taskKey: claim.key,
    attempt: claim.attempt,
    fencingToken: claim.fencingToken,
    leaseId: claim.leaseId,
    holder: claim.holder,
    input: specOf(claim).input ?? null,
    dependencyOutputs: claim.dependencyOutputs,
    ...(claim.inbox ? { inbox: claim.inbox } : {}),
  };
}

/**
 * Heartbeats required (the default): the heartbeat timeout is the task's lease TTL, as for every
 * attempt. Optional: no lease at all, and `startToCloseMs` (required then) is the only bound.
 */
export function foreignActivityOptions(claim: Claim): ForeignActivityOptions {
  const spec = specOf(claim);
  const base = { activityType: spec.activityType, taskQueue: spec.taskQueue };
  if (spec.heartbeat === 'optional')
    return { ...base, startToCloseTimeoutMs: spec.startToCloseMs ?? UNBOUNDED_ATTEMPT_MS };
  return {
    ...base,
    heartbeatTimeoutMs: claim.ttlMs,
    startToCloseTimeoutMs: spec.startToCloseMs ?? UNBOUNDED_ATTEMPT_MS,
  };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The envelope rule: a result is `{ output, usage }` when it is an object that has a `usage` key
 * and no key but `output` and `usage`. Anything else, `{ output }` alone included, is the output
 * itself. To output such an object as it is, wrap it: `{ output: <it>, usage: {} }`.
 */
export function isResultEnvelope(result: unknown): result is { output?: unknown; usage: unknown } {
  return (
    isPlainObject(result) &&
    Object.hasOwn(result, 'usage') &&
    Object.keys(result).every((k) => k === 'output' || k === 'usage')
  );
}

/**
 * What a foreign activity's result means for its task. Usage is taken as reported (the workflow
 * has no price table: without `costUsd` it is unpriced usage). Usage that does not fit the
 * contract's shape, or an output over the bound, fails the task without retry.
 */
export function foreignResultOutcome(result: unknown): AttemptOutcome {
  let output = result;
  let usage: Usage | undefined;
  if (isResultEnvelope(result)) {
    const parsed = UsageSchema.safeParse(result.usage);
    if (!parsed.success) {
      const problem = parsed.error.issues[0];
      return {
        kind: 'failed',
        errorType: FOREIGN_FAILURE_TYPES.invalidUsage,
        message:
          `the activity's usage is invalid at usage${problem.path.map((p) => `.${String(p)}`).join('')}: ` +
          `${problem.message} (fields: inputTokens, outputTokens, cacheTokens, model, costUsd)`,
        nonRetryable: true,
      };
    }
    usage = parsed.data;
    output = result.output;
  }
  const size = output === undefined ? 0 : jsonBytes(output);
  if (size > MAX_OUTPUT_BYTES) {
    return {
      kind: 'failed',
      errorType: FAILURE_TYPES.outputTooLarge,
      message:
        `task output is ${size} bytes, over the ${MAX_OUTPUT_BYTES}-byte bound (outputs travel through ` +
        `history to dependents; store large results elsewhere and output a reference)`,
      nonRetryable: true,
      usage,
    };
  }
  return { kind: 'completed', output, usage };
}

/** The fields of an `AttemptOutcome`; anything else a foreign failure's details spread in is dropped. */
const OUTCOME_FIELDS = [
  'kind',
  'message',
  'errorType',
  'nonRetryable',
  'usage',
  'output',
  'workerIdentity',
  'reason',
] as const;

function boundedString(value: unknown, max: number): string | undefined {
  return typeof value === 'string' ? value.slice(0, max) : undefined;
}

/**
 * A foreign failure's details and heartbeats are whatever the other SDK sent: keep of them only
 * what fits the contract's shapes and bounds, so nothing unbounded enters the run's state.
 */
export function boundForeignOutcome(outcome: AttemptOutcome): AttemptOutcome {
  const out: Record<string, unknown> = {};
  for (const key of OUTCOME_FIELDS)
    if (Object.hasOwn(outcome, key)) out[key] = (outcome as Record<string, unknown>)[key];
  if ('usage' in outcome) {
    const parsed = UsageSchema.safeParse(outcome.usage);
    out.usage = parsed.success ? parsed.data : undefined;
  }
  if ('output' in outcome && outcome.output !== undefined && jsonBytes(outcome.output) > MAX_OUTPUT_BYTES)
    out.output = undefined;
  if ('workerIdentity' in outcome) out.workerIdentity = boundedString(outcome.workerIdentity, MAX_NAME_CHARS);
  if (outcome.kind === 'failed') {
    out.message = boundedString(outcome.message, MAX_MESSAGE_CHARS) ?? 'the activity failed';
    out.errorType = boundedString(outcome.errorType, MAX_NAME_CHARS);
  }
  for (const key of Object.keys(out)) if (out[key] === undefined) delete out[key];
  return out as AttemptOutcome;
}
