import type { Client, WorkflowExecutionDescription } from '@temporalio/client';
import { optionalTsToMs } from '@temporalio/common/lib/time';
import { decodePayloads as decode } from '../codec';
import { searchAttributeCommands, searchAttributeState, taskQueuePollers } from './setup-checks';

/** temporal.api.enums.v1.WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_BAD_SEARCH_ATTRIBUTES */
const BAD_SEARCH_ATTRIBUTES = 23;
/** temporal.api.enums.v1.PendingActivityState, in the words `status` prints. */
const ACTIVITY_STATES: Record<number, string> = {
  1: 'scheduled',
  2: 'started',
  3: 'cancel requested',
  4: 'paused',
  5: 'pause requested',
};
/** The failed workflow task is among a run's last events: later attempts are not recorded. */
const HISTORY_TAIL = 100;
const MESSAGE_CHARS = 500;
/** At most this many task queues are described for one run (a plan lists at most a few). */
const MAX_QUEUES = 20;

/** A run whose workflow task keeps failing: nothing in it moves and no query answers. */
export interface FailingWorkflowTask {
  /** The pending workflow task's attempt (2 or more). */
  attempt: number;
  /** The failure Temporal recorded for it, e.g. `BadSearchAttributes: Namespace x has no mapping ...`. */
  message: string;
  /** teamrun's search attributes the namespace lacks, when that is the cause. */
  missingSearchAttributes: string[];
  /** The `temporal` commands that fix it, naming the address in use. */
  fix: string[];
}

/**
 * Why the run's workflow task fails, read from its latest WorkflowTaskFailed event; null while
 * its workflow task is on its first attempt (or none is pending). A workflow task failed for
 * missing search attributes (a run started with plain `temporal workflow start` on a namespace
 * nobody set up) is only visible here and in the worker's log.
 */
export async function failingWorkflowTask(
  client: Client,
  description: WorkflowExecutionDescription,
  address: string,
): Promise<FailingWorkflowTask | null> {
  const attempt = description.raw.pendingWorkflowTask?.attempt ?? 0;
  if (attempt < 2) return null;
  const namespace = client.options.namespace;
  const { history } = await client.workflowService.getWorkflowExecutionHistoryReverse({
    namespace,
    execution: { workflowId: description.workflowId, runId: description.runId },
    maximumPageSize: HISTORY_TAIL,
  });
  const failed = history?.events?.find((e) => e.workflowTaskFailedEventAttributes)?.workflowTaskFailedEventAttributes;
  const message = (failed?.failure?.message ?? "no failure among its latest events: the worker's log says why").slice(
    0,
    MESSAGE_CHARS,
  );
  if (failed?.cause !== BAD_SEARCH_ATTRIBUTES) return { attempt, message, missingSearchAttributes: [], fix: [] };
  const missing = (await searchAttributeState(client.connection, namespace).catch(() => null))?.missing ?? [];
  return {
    attempt,
    message,
    missingSearchAttributes: missing,
    fix: missing.length ? searchAttributeCommands(namespace, missing, address) : [],
  };
}

/** What `status` and `doctor` say of a failing workflow task, the fix commands indented. */
export function failingWorkflowTaskText(workflowId: string, namespace: string, failing: FailingWorkflowTask): string {
  const lines = [
    `run ${workflowId} is stuck: its workflow task fails (attempt ${failing.attempt}): ${failing.message}`,
  ];
  if (failing.missingSearchAttributes.length) {
    lines.push(
      `namespace ${namespace} lacks teamrun's search attributes ${failing.missingSearchAttributes.join(', ')}: ` +
        '`teamrun doctor --fix` registers them, or:',
      ...failing.fix.map((line) => `  ${line}`),
      'the run goes on at its next workflow task attempt once they are registered',
    );
  } else {
    lines.push("the worker's log has the detail; the run goes on once its workflow task completes");
  }
  return lines.join('\n');
}

/** One attempt Temporal holds for the run: scheduled on a queue, or started by a worker. */
export interface PendingAttempt {
  activityId: string;
  /** The activity's type (`runTask`, `ledgerRegister`, ...), or null when Temporal does not say. */
  activityType: string | null;
  /** `scheduled` (no worker took it yet), `started`, `cancel requested`, ... */
  state: string;
  taskQueue: string | null;
  scheduledAt: number | null;
  /** For a `scheduled` attempt: how many workers poll its queue for activities (null: unknown). */
  pollers: number | null;
  /** Its try: more than 1 once a try failed and Temporal retries it. */
  tries: number;
  /** Why its last try failed (a ledger's refusal, for a slot's wait), or null. */
  lastFailure: string | null;
  /** When Temporal described it: how long it had waited is counted to here, not to when a command prints it. */
  describedAt: number;
}

/**
 * The run's pending attempts as Temporal describes them. The run itself cannot tell an attempt
 * scheduled on a queue nobody polls from one running (it sees neither start), so `status` asks here.
 */
export async function pendingAttempts(
  client: Client,
  description: WorkflowExecutionDescription,
  describedAt = Date.now(),
): Promise<PendingAttempt[]> {
  const attempts = (description.raw.pendingActivities ?? []).map((a) => ({
    activityId: a.activityId ?? '?',
    activityType: a.activityType?.name ?? null,
    state: ACTIVITY_STATES[Number(a.state)] ?? 'unknown',
    taskQueue: a.activityOptions?.taskQueue?.name ?? null,
    scheduledAt: optionalTsToMs(a.scheduledTime) ?? null,
    pollers: null as number | null,
    tries: a.attempt ?? 1,
    lastFailure: a.lastFailure?.message ?? null,
    describedAt,
  }));
  const queues = [...new Set(attempts.filter((a) => a.state === 'scheduled' && a.taskQueue).map((a) => a.taskQueue!))];
  const pollers = await activityPollers(client, queues.slice(0, MAX_QUEUES));
  for (const a of attempts) if (a.state === 'scheduled' && a.taskQueue) a.pollers = pollers.get(a.taskQueue) ?? null;
  return attempts;
}

/** A task queue a run needs polled, and whether anyone polls it. */
export interface RunQueue {
  name: string;
  /** `workflow` for the run's own queue (its workflow tasks and teamrun's attempts), `activity` otherwise. */
  role: 'workflow' | 'activity';
  pollers: number | null;
}

/**
 * The queues a run names: its own task queue (workflow pollers), the `activityQueues` of the plan
 * it started with, and the queues of its pending attempts (activity pollers).
 */
export async function runQueues(client: Client, description: WorkflowExecutionDescription): Promise<RunQueue[]> {
  const attempts = (description.raw.pendingActivities ?? []).map((a) => a.activityOptions?.taskQueue?.name);
  const activity = [...(await planActivityQueues(client, description)), ...attempts]
    .filter((q): q is string => typeof q === 'string' && q !== description.taskQueue)
    .filter((q, i, all) => all.indexOf(q) === i)
    .slice(0, MAX_QUEUES);
  const own = await taskQueuePollers(client.connection, client.options.namespace, description.taskQueue)
    .then((p) => p.workflow.length)
    .catch(() => null);
  const polled = await activityPollers(client, activity);
  return [
    { name: description.taskQueue, role: 'workflow', pollers: own },
    ...activity.map((name) => ({ name, role: 'activity' as const, pollers: polled.get(name) ?? null })),
  ];
}

async function activityPollers(client: Client, queues: string[]): Promise<Map<string, number | null>> {
  const counts = await Promise.all(
    queues.map((q) =>
      taskQueuePollers(client.connection, client.options.namespace, q)
        .then((p) => p.activity.length)
        .catch(() => null),
    ),
  );
  return new Map(queues.map((q, i) => [q, counts[i]]));
}

/**
 * `activityQueues` of the plan in the run's start input; a run continued as new starts from a
 * snapshot instead, and its queues are known from its pending attempts only.
 */
async function planActivityQueues(client: Client, description: WorkflowExecutionDescription): Promise<string[]> {
  try {
    const { history } = await client.workflowService.getWorkflowExecutionHistory({
      namespace: client.options.namespace,
      execution: { workflowId: description.workflowId, runId: description.runId },
      maximumPageSize: 1,
    });
    const payloads = history?.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads ?? [];
    if (!payloads.length) return [];
    const converter = client.options.loadedDataConverter;
    const [payload] = await decode(converter.payloadCodecs, [payloads[0]]);
    const input = converter.payloadConverter.fromPayload<{ activityQueues?: unknown }>(payload);
    const queues = input?.activityQueues;
    return Array.isArray(queues) ? queues.filter((q): q is string => typeof q === 'string') : [];
  } catch {
    // An input this client cannot decode (another codec key) leaves the pending attempts' queues.
    return [];
  }
}
