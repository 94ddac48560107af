import { sha256, toHex } from '../agent/sha256';
import type { AttemptProof, FailureType } from '../contract';
import { extended } from '../objects';
import type { ExecutorSpec, Usage } from '../plan/schema';
import type { MailMessage } from '../team/mailbox';
import type { Grant } from '../team/types';
import type { LedgerLease } from '../ledger/activity-interface';

/**
 * What the workflow hands one attempt, and what the attempt hands back. This file has no
 * Node imports: the workflow uses it too.
 */
/** Which attempt of which task this is: what every attempt hands on, whatever runs it. */
export interface AttemptIdentity {
  workflowId: string;
  taskKey: string;
  attempt: number;
  fencingToken: number;
  leaseId: string;
  holder: string;
}

export interface RunTaskInput extends AttemptIdentity {
  title: string;
  executor: ExecutorSpec;
  dependencyOutputs: Record<string, unknown>;
  /** The shared-ledger slot this attempt holds, which it renews while it runs. */
  ledger?: LedgerLease;
  /** Mailbox messages waiting for the task when the attempt started (absent when none). */
  inbox?: MailMessage[];
  /** The task may add tasks (the plan's `allowSpawn`). */
  allowSpawn?: boolean;
  /** The JSON Schema the task's output must match (the plan's `outputSchema`). */
  outputSchema?: Record<string, unknown>;
  /** Past this long without a step the worker stops the attempt as stalled (`TEAM_TASK_STALLED`); absent: never. */
  stallAfterMs?: number;
  /** Heartbeat pace (the lease's; none before the first). Absent: derived from the heartbeat timeout. */
  heartbeatEveryMs?: number;
  /** Past this long, the attempt tells its run which worker queue reaches it (`attemptRunning`). */
  announceAfterMs?: number;
  /** What the attempt may spend before it asks its run for more (absent in attempts started before live budgets). */
  grant?: Grant;
  /**
   * The run confirms the attempt's completion with its worker before it takes it (a governed run): the result then
   * carries `proof`, a one-time nonce bound to the result's SHA-256 (docs/security.md, "An attempt's completion").
   */
  proveCompletion?: true;
}

/**
 * What the workflow sends an attempt since compact inputs (a patch; older runs send RunTaskInput
 * whole, which `runTask` still takes): what the executor needs and nothing the worker can derive.
 * The worker takes the run's workflow id from the activity's info, the task key and fencing token
 * from its activity id (`<key>#<token>`, `attemptActivityId`), the lease id from those
 * (`leaseIdOf`); a field equal to its default is left out: `attempt` (the fencing token), `title`
 * (the key), `dependencyOutputs` (none), `heartbeatEveryMs` (from the heartbeat timeout),
 * `announceAfterMs` (STOP_ANNOUNCE_AFTER_MS). Every byte here is stored in history once per attempt.
 */
export type CompactRunTaskInput = Omit<
  RunTaskInput,
  'workflowId' | 'taskKey' | 'attempt' | 'fencingToken' | 'leaseId' | 'title' | 'dependencyOutputs'
> & {
  workflowId?: undefined;
  /** Only when the activity id does not name them. */
  taskKey?: string;
  fencingToken?: number;
  attempt?: number;
  /** Only when it is not `leaseIdOf(workflowId, taskKey, fencingToken)`. */
  leaseId?: string;
  title?: string;
  dependencyOutputs?: Record<string, unknown>;
};

/** What `runTask` takes: the compact input, or the whole one of attempts scheduled before it. */
export type RunTaskWireInput = RunTaskInput | CompactRunTaskInput;

/** The lease id of an attempt: its run, task and fencing token (src/team/leases.ts makes them so). */
export function leaseIdOf(workflowId: string, taskKey: string, fencingToken: number): string {
  return `${workflowId}/${taskKey}/${fencingToken}`;
}

/** The activity id of an attempt's `runTask`: its task and fencing token (src/team/leases.ts makes them so). */
export function attemptActivityId(taskKey: string, fencingToken: number): string {
  return `${taskKey}#${fencingToken}`;
}

/**
 * The whole input of an attempt from what its run sent and its activity's info (`workflowId`,
 * `activityId`); `defaults` are the worker's own (the heartbeat timeout's pace, the announce delay).
 */
export function expandRunTaskInput(
  input: RunTaskWireInput,
  activity: { workflowId: string; activityId: string },
  defaults: { heartbeatEveryMs: number; announceAfterMs: number },
): RunTaskInput {
  if (input.workflowId !== undefined) return input;
  const { leaseId, title, dependencyOutputs, heartbeatEveryMs, announceAfterMs } = input;
  const { workflowId, activityId } = activity;
  const cut = activityId.lastIndexOf('#');
  const taskKey = input.taskKey ?? activityId.slice(0, cut);
  const fencingToken = input.fencingToken ?? Number(activityId.slice(cut + 1));
  const named = input.taskKey !== undefined && input.fencingToken !== undefined;
  if (!named && (cut < 1 || !Number.isSafeInteger(fencingToken))) {
    throw new Error(
      `runTask: activity id "${activityId}" is not <task key>#<fencing token>, and the input names neither`,
    );
  }
  return extended(input, {
    workflowId,
    taskKey,
    attempt: input.attempt ?? fencingToken,
    fencingToken,
    leaseId: leaseId ?? leaseIdOf(workflowId, taskKey, fencingToken),
    title: title ?? taskKey,
    dependencyOutputs: dependencyOutputs ?? {},
    heartbeatEveryMs: heartbeatEveryMs ?? defaults.heartbeatEveryMs,
    announceAfterMs: announceAfterMs ?? defaults.announceAfterMs,
  });
}

/**
 * The end of what an attempt printed: redacted tails (at most `worker.shell.logTailBytes` each)
 * and the total bytes each stream carried. Kept in history (the activity's result or failure
 * details), never in the run's state.
 */
export interface AttemptLogs {
  stdout: string;
  stderr: string;
  stdoutBytes: number;
  stderrBytes: number;
}

/** A link an attempt printed (`::teamrun-link::{"url":...,"label":...}`): where its full logs or results are. */
export interface AttemptLink {
  url: string;
  label: string;
}

/** At most this many links per attempt; later ones are ignored. */
export const MAX_ATTEMPT_LINKS = 5;

export interface RunTaskResult {
  output?: unknown;
  usage?: Usage;
  /** Absent since issue 31 (history records the worker that completed the activity). */
  workerIdentity?: string;
  logs?: AttemptLogs;
  links?: AttemptLink[];
  /** `::teamrun-message::` lines: mailbox messages the run sends when this attempt settles the task. */
  messages?: unknown[];
  /**
   * Tasks to add (`::teamrun-tasks::` lines, an llm answer's
   * `tasks`): the run adds them if this attempt settles the task.
   */
  tasks?: unknown[];
  /** The executor said part of its usage cannot be known (`budget.markUnknown()`): the run's budget says so. */
  usageUnknown?: true;
  /**
   * With `proveCompletion`: this worker's one-time nonce for this result (message `complete`, anchored to the SHA-256
   * of the result's JSON without `proof`), which the run confirms on `queue` before it settles the attempt.
   */
  proof?: AttemptProof;
}

/** Bound on the tasks one attempt asks to add, as JSON (and ADD_TASKS_LIMITS.maxTasks of them). */
export const MAX_SPAWN_BYTES = 512 * 1024;

/** Carried in a failure's details and a cancellation's details: what the attempt did before it stopped. */
export interface AttemptEvidence {
  usage?: Usage;
  output?: unknown;
  workerIdentity: string;
  logs?: AttemptLogs;
  links?: AttemptLink[];
  messages?: unknown[];
  /** As RunTaskResult's: the executor marked its usage unknown. */
  usageUnknown?: true;
  /** With `proveCompletion`: as RunTaskResult's, anchored to `failureAnchor` of the failure (or cancellation). */
  proof?: AttemptProof;
}

/** Governed runs recorded before failures and cancellations were confirmed took them as they came (a patch id). */
export const FAILURE_CONFIRMED = 'teamrun-failure-confirmed';

/**
 * What a worker's proof of an attempt's failure or cancellation is bound to (the SHA-256 of this text): what the run
 * takes from it. A cancellation's message is the SDK's, not the worker's: only its evidence counts.
 */
export function failureAnchor(failure: {
  cancelled: boolean;
  type?: string | null;
  message?: string;
  nonRetryable?: boolean;
  evidence: unknown;
}): string {
  const evidence = failure.evidence ?? null;
  if (failure.cancelled) return JSON.stringify({ cancelled: true, evidence });
  // Temporal carries a failure without a type as an empty one: the same here.
  const { type, message = '', nonRetryable = false } = failure;
  return JSON.stringify({ cancelled: false, type: type || null, message, nonRetryable, evidence });
}

/** Carried in every heartbeat. */
export interface HeartbeatDetails {
  workerIdentity: string;
  fencingToken: number;
  elapsedMs: number;
  progress?: unknown;
  /** A model call's output so far (ctx.live), redacted and bounded; absent between calls (live-output.ts). */
  live?: LiveView;
}

/** What a heartbeat carries of a model call in progress: the tail of its text and its tool calls so far. */
export interface LiveView {
  turn: number;
  /** The last LIVE_LIMITS.textBytes of the text so far (`cut`: more came before it). */
  text: string;
  cut?: true;
  toolCalls?: Array<{ name: string; args: string }>;
  /** When the worker published it (ms since the epoch). */
  at: number;
}

/** Failure types the workflow tells apart. */
export const FAILURE_TYPES = {
  /** The worker is shutting down: the attempt is handed back to be re-leased, not adjudicated. */
  workerShutdown: 'TeamWorkerShutdown',
  executorNotEnabled: 'TeamExecutorNotEnabled',
  invalidExecutor: 'TeamInvalidExecutor',
  outputTooLarge: 'TeamOutputTooLarge',
  invalidPlan: 'InvalidTeamPlan',
  /** The executor threw something other than an ExecutorError: retried under the task's `retry`. */
  executorCrashed: 'TeamExecutorCrashed',
  /** The worker's `beforeTask` hook refused the attempt (non-retryable; src/activities/host-hooks.ts). */
  hookRefused: 'TEAM_TASK_HOOK_REFUSED',
  /** A worker hook threw: retried under the task's `retry` before the executor ran, not retried after it. */
  hookFailed: 'TEAM_TASK_HOOK_FAILED',
  /** A worker hook ran past its bound (`hooks.timeoutMs`, 10 s unless set): as `hookFailed`. */
  hookTimeout: 'TEAM_TASK_HOOK_TIMEOUT',
} as const satisfies Record<string, FailureType>;

/** Bound on one task's output, which travels through history to its dependents. */
export const MAX_OUTPUT_BYTES = 64 * 1024;

export interface TeamActivities {
  runTask(input: RunTaskWireInput): Promise<RunTaskResult>;
}

/** The signal a long attempt sends its run: `{ key, fencingToken, queue }` (see src/team/stop-channel.ts). */
export const ATTEMPT_RUNNING_SIGNAL = 'attemptRunning';

/** The signal an agent attempt's worker sends its run: `{ key, fencingToken, steps }` (src/team/agents.ts). */
export const AGENT_STEPS_SIGNAL = 'agentSteps';

/** The messages a task sends its run through its worker's attempt gateway. */
export type AttemptMessage = 'sendMessage' | 'readInbox' | 'addTasks' | 'extendReservation' | 'linkRun';
/** Every message an attempt sends its run as itself (signed by its worker, with its request's `askAnchor`). */
export const ATTEMPT_MESSAGES: ReadonlySet<string> = new Set<AttemptMessage>([
  'sendMessage',
  'readInbox',
  'addTasks',
  'extendReservation',
  'linkRun',
]);

/**
 * What a worker's gateway proves: an attempt's messages to the run, the anchors of the hash chains
 * its agent's journal writes (`journal`) and step signals (`agentSteps`) carry, and a steer the
 * run handed this worker's `steerAgent` for an agent's journal (`steer`).
 */
export type ProvenMessage = AttemptMessage | 'journal' | 'agentSteps' | 'steer' | 'ledger' | 'complete';

/**
 * A run (or an agent's journal) asks the worker it names whether a request that carries
 * `attempt: { queue, nonce }` was sent by the gateway for this attempt (src/activities/gateway/gateway.ts).
 */
export interface ConfirmAttemptRequest {
  nonce: string;
  /** The run's workflow id (a journal asks for its run's attempt). */
  workflowId: string;
  key: string;
  fencingToken: number;
  message: ProvenMessage;
  /**
   * For `journal` and `agentSteps`: the hash chain's anchor the request carried; for `steer`: its text's SHA-256; for
   * `complete`: the SHA-256 of the attempt's result as JSON, without its `proof`; for an attempt's message, when its
   * proof is signed: `askAnchor` of its request.
   */
  anchor?: string;
  /** A signed proof's key: the worker answers yes only if it is its own (src/workflows/signed-proofs.ts). */
  signingKey?: string;
}

/** How long a worker's gateway keeps a nonce for its run (or a ledger) to ask about, once. */
export const PROOF_NONCE_TTL_MS = 60_000;

/** What an attempt's signed message is drawn for: its name and its request without the proof, byte for byte. */
export function askAnchor(message: AttemptMessage, request: unknown): string {
  return toHex(sha256(new TextEncoder().encode(`${message}\n${JSON.stringify(request)}`)));
}

/**
 * What a worker signs of an attempt's message to its run (src/workflows/signed-asks.ts): the run, the attempt, the
 * message, its request's anchor, the nonce and when (its clock). Tagged apart from `signedProofText`, so that neither
 * passes for the other.
 */
export function signedAskText(
  request: { workflowId: string; key: string; fencingToken: number; message: AttemptMessage; anchor: string },
  proof: { nonce: string; signedAt: number },
): string {
  const { workflowId, key, fencingToken, message, anchor } = request;
  return JSON.stringify(['teamrun-ask', workflowId, key, fencingToken, message, anchor, proof.nonce, proof.signedAt]);
}

/** What a worker signs of a request it proves (its result or failure): every field its run checks, and the nonce. */
export function signedProofText(request: Omit<ConfirmAttemptRequest, 'nonce' | 'signingKey'>, nonce: string): string {
  const { workflowId, key, fencingToken, message, anchor } = request;
  return JSON.stringify(['teamrun-proof', workflowId, key, fencingToken, message, anchor ?? null, nonce]);
}

/**
 * How a task's own processes reach the worker's attempt gateway (`TEAMRUN_ATTEMPT_SOCKET`,
 * `TEAMRUN_ATTEMPT_SECRET`), and the directory of the worker's own `teamrun` launcher.
 */
export interface AttemptAccess {
  socket: string;
  secret: string;
  binDir: string | null;
}

/** Which running attempt an adopt re-attaches to, and the lease it heartbeats for its new run. */
export interface AdoptAttemptInput {
  workflowId: string;
  taskKey: string;
  fencingToken: number;
  leaseId: string;
  /** The lease's heartbeat pace (none sent before the first is due). */
  heartbeatEveryMs: number;
  /** The run confirms the attempt's result with its worker (as `RunTaskInput.proveCompletion`). */
  proveCompletion?: true;
}

/**
 * Run on one worker's own stop queue. `stopAttempts` stops the attempts it runs among `leaseIds`
 * at once; `confirmAttemptRequest` confirms (once) a request its attempt gateway sent for one of
 * them; `handOverAttempts` tells it their run is continuing as new, so the executors outlive
 * the old run's activities; `adoptAttempt` re-attaches the next run to one of them and answers as
 * its runTask would (fails with type ATTEMPT_GONE, src/team/handover.ts, when the worker no longer has it).
 */
export interface StopActivities {
  stopAttempts(input: { leaseIds: string[] }): Promise<{ stopped: number }>;
  confirmAttemptRequest(input: ConfirmAttemptRequest): Promise<boolean>;
  handOverAttempts(input: { leaseIds: string[] }): Promise<{ handedOver: number }>;
  adoptAttempt(input: AdoptAttemptInput): Promise<RunTaskResult>;
}
