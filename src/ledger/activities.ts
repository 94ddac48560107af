import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import type { AcquireVerdict, AttemptProof, LedgerExtendVerdict, SettleVerdict } from '../contract';
import { BATCH_DEADLINE_MS, LedgerBatcher } from './batcher';
import { InFlightLimit } from '../sdk/in-flight';
import { Introductions } from './introductions';
import { CONFIRMATIONS_BUSY } from '../team/governance';
import { ledgerWorkflowId } from '../plan/requests/ledger';
import { LedgerSquatted, ledgerHandle, registerWithLedger, updateLedger } from './handle';
import * as lm from './messages';
import { LEDGER_FAILURE_TYPES, type LedgerActivities, type LedgerRefusalDetails } from './activity-interface';
import { provenRequest, type ProveLedgerCall, type WorkerCall } from './doors';

/** How often a ledger call heartbeats while the ledger answers (so a crash or a cancel is seen quickly). */
const HEARTBEAT_EVERY_MS = 1_000;
/**
 * A ledger confirms one request at a time from a worker queue it does not know yet and refuses the others `busy`
 * until that one is confirmed. Sent again after this (halved to doubled at random), with a new proof, so many tries:
 * runs starting together on a new worker register within a few hundred ms, not after the activity's 1 s retry.
 */
const BUSY_RETRY_MS = 300;
const BUSY_TRIES = 10;

/**
 * Draws this worker's one-time proof for a ledger update (the attempt gateway's `proveLedger`): the ledger confirms
 * it with this worker before it records the update (src/ledger/doors.ts).
 */
export type ProveLedger = ProveLedgerCall;

/** The activities a team run uses to talk to its shared ledger workflow, through `client`, with `prove`'s proofs. */
export function createLedgerActivities(deps: {
  client: Client;
  prove: ProveLedger;
  /** Where a ledger a run's registration starts runs: the run's own queue (not the control queue it asks on). */
  workflowQueue?: string;
}): LedgerActivities {
  const { client, prove } = deps;
  // The proof binds the update's name and its request as sent; it travels beside the request's own fields.
  const proven = <R extends object>(ledgerId: string, call: WorkerCall, request: R): R & { proof: AttemptProof } =>
    provenRequest(prove, ledgerId, call, request);
  // This worker's updates of one ledger, registrations and farewells with the batches: a few at a time (10 runs
  // registering at once, beside four batches, met ConcurrentLimit on the ledger in bench section 12).
  const toLedgers = new InFlightLimit();
  const introductions = new Introductions();
  const inTurn = <T>(ledgerId: string, what: string, send: () => Promise<T>) =>
    introductions.send(ledgerId, () =>
      toLedgers.run(ledgerId, Date.now() + BATCH_DEADLINE_MS, `ledger ${ledgerId}: ${what}`, send),
    );
  // This worker's acquires, extensions and settlements of one ledger go together, a few batches in flight at a time.
  const batcher = new LedgerBatcher({
    batch: (ledgerId, items, signal) =>
      inTurn(ledgerId, 'batch', () =>
        whileBusy(() =>
          client.withAbortSignal(signal, () =>
            updateLedger(client, ledgerId, lm.ledgerBatchUpdate, proven(ledgerId, 'batch', { items })),
          ),
        ),
      ),
    single: (ledgerId, item) => {
      if (item.call === 'acquire') {
        return updateLedger(client, ledgerId, lm.ledgerAcquireUpdate, proven(ledgerId, 'acquire', item.request));
      }
      if (item.call === 'settle') {
        return updateLedger(client, ledgerId, lm.ledgerSettleUpdate, proven(ledgerId, 'settle', item.request));
      }
      // One update id per extension: a retried activity finds the ledger's answer instead of asking twice.
      const updateId = `extend:${item.request.attemptId}:${item.request.extensionId}`;
      const sent = proven(ledgerId, 'extend', item.request);
      return updateLedger(client, ledgerId, lm.ledgerExtendUpdate, sent, updateId);
    },
  });
  return {
    async ledgerRegister({ ledgerId, workflowId, name, spawns, firstRunId, block }) {
      ownRun({ workflowId });
      if (block) ownRun(block);
      const taskQueue = deps.workflowQueue ?? Context.current().info.taskQueue;
      const request = (withBlock: boolean) =>
        proven(ledgerId, 'register', {
          workflowId,
          name,
          ...(spawns === undefined ? {} : { spawns }),
          ...(firstRunId === undefined ? {} : { firstRunId }),
          ...(withBlock && block ? { block } : {}),
        });
      const send = (withBlock: boolean) =>
        inTurn(ledgerId, 'register', () =>
          whileBusy(() => registerWithLedger(client, ledgerId, request(withBlock), { taskQueue })),
        );
      // A ledger of an earlier version takes no block with a registration (its schema refuses the field): the run
      // registers without it, and asks for the block as before.
      const registered = send(true).catch((err: unknown) => {
        if (!block || !refusedBlockField(err)) throw err;
        return send(false);
      });
      const verdict = await heartbeating(registered).catch((err) => {
        // Asking again cannot help: the run stops, naming the workflow that holds its ledger's id.
        if (err instanceof LedgerSquatted)
          throw ApplicationFailure.create({
            type: LEDGER_FAILURE_TYPES.squatted,
            message: err.message,
            nonRetryable: true,
          });
        throw err;
      });
      const taken = verdict.block?.ok ? verdict.block : null;
      const blockAnswer = taken ? { expiresAt: taken.expiresAt, ...(taken.block ? { block: taken.block } : {}) } : null;
      return {
        exhausted: verdict.exhausted,
        ...(verdict.tree ? { tree: verdict.tree } : {}),
        ...(block ? { block: blockAnswer } : {}),
      };
    },

    async ledgerAcquire({ ledgerId, refuseRecovery, once, ...request }) {
      ownRun(request);
      // Told at once (not waited for) when the caller wants to say why it waits, or asks once (a block).
      const retryable = (reason: string, wait: boolean) =>
        wait && !once && !(refuseRecovery && reason === 'recovery-required');
      let verdict;
      try {
        verdict = (await heartbeating(batcher.ask(ledgerId, { call: 'acquire', request }))) as AcquireVerdict;
      } catch (err) {
        throw refusalOf(err, retryable) ?? err;
      }
      if (!verdict.ok) throw refusal(verdict.reason, retryable(verdict.reason, verdict.retryable), verdict.message);
      return { expiresAt: verdict.expiresAt, ...(verdict.block ? { block: verdict.block } : {}) };
    },

    async ledgerExtend({ ledgerId, ...request }) {
      ownRun(request);
      let verdict;
      try {
        verdict = (await heartbeating(batcher.ask(ledgerId, { call: 'extend', request }))) as LedgerExtendVerdict;
      } catch (err) {
        // Busy (its first requests from this worker being confirmed): asked again by the activity's retries.
        if (confirmationsBusy(err)) throw err;
        throw refusalOf(err, () => false) ?? unsupported(err, ledgerId) ?? err;
      }
      if (!verdict.ok) throw refusal(verdict.reason, false, verdict.message);
      return { reservation: verdict.reservation };
    },

    async ledgerSettle({ ledgerId, ...request }) {
      ownRun({ attemptId: request.attemptId, workflowId: request.lost?.workflowId });
      const verdict = await heartbeating(batcher.ask(ledgerId, { call: 'settle', request }));
      return { duplicate: (verdict as Omit<SettleVerdict, 'abort'>).duplicate };
    },

    async ledgerUnregister({ ledgerId, workflowId, spawned }) {
      ownRun({ workflowId });
      const sent = () => proven(ledgerId, 'unregister', { workflowId, ...(spawned === undefined ? {} : { spawned }) });
      const verdict = await heartbeating(
        inTurn(ledgerId, 'unregister', () =>
          whileBusy(() => updateLedger(client, ledgerId, lm.ledgerUnregisterUpdate, sent())),
        ),
      );
      // The run's result keeps the ledger's totals as the run left it: in the answer, or asked of a ledger of an
      // earlier version; one that does not answer leaves them out.
      if (verdict.ledger) return { ledger: verdict.ledger };
      try {
        const status = await client.workflow.getHandle(ledgerWorkflowId(ledgerId)).query(lm.ledgerStatusQuery);
        return { ledger: lm.ledgerTotals(status) };
      } catch {
        return {};
      }
    },

    ledgerConfirmAbort: async ({ ledgerId, workflowId, since }) => {
      ownRun({ workflowId });
      return heartbeating(ledgerAborted(client, ledgerId, workflowId, since));
    },
  };
}

/**
 * The worker vouches (with its proof) for the run that scheduled the activity, as the server names it, never for the
 * run its input names: a workflow id is not a credential. A request naming another run, or an attempt
 * (`<workflowId>/<task>/<token>`) of another run, is refused before anything reaches the ledger.
 */
function ownRun(request: { workflowId?: string; attemptId?: string }): void {
  // Absent for an activity started on its own, by a client rather than by a workflow: it speaks for no run.
  const own = Context.current().info.workflowExecution?.workflowId;
  const { workflowId, attemptId } = request;
  const named = workflowId !== undefined && workflowId !== own ? `run ${workflowId}` : null;
  const attempt = attemptId !== undefined && !attemptId.startsWith(`${own}/`) ? `attempt ${attemptId}` : null;
  const other = named ?? attempt;
  if (own !== undefined && !other) return;
  const message =
    own === undefined
      ? `a ledger call scheduled by no run (it names ${other ?? 'no run'}) is refused: only a run speaks to its ledger`
      : `the ledger call of run ${own} names ${other}: a run speaks to its ledger only for itself`;
  throw ApplicationFailure.create({
    type: LEDGER_FAILURE_TYPES.refused,
    message,
    nonRetryable: true,
    details: [{ reason: 'not-own-run', message } satisfies LedgerRefusalDetails],
  });
}

/**
 * Asks the ledger's own workflow (of the ledger's type: a workflow squatting its id is nobody's word) whether its
 * last abort named `workflowId`, at or after `since`: an operator's abort-all and an exhaustion both leave that record.
 */
async function ledgerAborted(client: Client, ledgerId: string, workflowId: string, since: number) {
  const handle = ledgerHandle(client, ledgerId);
  let described;
  try {
    described = await handle.describe();
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { confirmed: false, why: `no workflow ${handle.workflowId}` };
    throw err;
  }
  if (described.type !== lm.LEDGER_WORKFLOW_TYPE) {
    return { confirmed: false, why: `workflow ${handle.workflowId} runs as ${described.type}, not as a ledger` };
  }
  const last = (await handle.query(lm.ledgerStatusQuery)).lastAbort;
  if (!last) return { confirmed: false, why: `ledger ${ledgerId} has aborted no run` };
  const at = new Date(last.at).toISOString();
  if (last.at < since || !last.runs.includes(workflowId)) {
    return { confirmed: false, why: `the last abort of ledger ${ledgerId} (${at}) did not name this run` };
  }
  return { confirmed: true, why: `ledger ${ledgerId} aborted it at ${at}: ${last.reason}` };
}

/** The ledger's validator refused the acquire: a wait becomes a retryable failure, a spent limit a final one. */
function refusalOf(err: unknown, retryable: (reason: string, wait: boolean) => boolean): ApplicationFailure | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const cause = err.cause;
  if (!(cause instanceof ApplicationFailure) || cause.type !== lm.LEDGER_REFUSED) return null;
  const details = cause.details?.[0] as { reason: string; retryable: boolean } | undefined;
  const reason = details?.reason ?? 'max-concurrent';
  return refusal(reason, retryable(reason, details?.retryable ?? true), cause.message);
}

/** A ledger of an earlier version refused a registration's `block` field as unknown (its strict schema's words). */
export function refusedBlockField(err: unknown): boolean {
  if (!(err instanceof WorkflowUpdateFailedError)) return false;
  return /Unrecognized keys?: .*"block"/.test(String(err.cause?.message));
}

/** `send`'s answer, sent again (each time with a new proof: `send` draws it) while the ledger answers `busy`. */
async function whileBusy<T>(send: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await send();
    } catch (err) {
      if (!confirmationsBusy(err) || tries >= BUSY_TRIES) throw err;
      await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_MS / 2 + Math.random() * BUSY_RETRY_MS * 1.5));
    }
  }
}

function confirmationsBusy(err: unknown): boolean {
  return err instanceof WorkflowUpdateFailedError && (err.cause as { type?: string })?.type === CONFIRMATIONS_BUSY;
}

/**
 * The ledger's workflow refused the update itself: one of an older version has no `extend` ("No registered handler
 * for update"). Asking again cannot help: the extension is refused, so the run stops the attempt rather than wait.
 */
function unsupported(err: unknown, ledgerId: string): ApplicationFailure | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const why = err.cause instanceof Error ? err.cause.message : String(err.cause);
  return refusal('unsupported', false, `ledger ${ledgerId} cannot grant extensions: ${why}`);
}

/**
 * Refusals are the ledger doing its job, not errors of the worker: benign failures are logged
 * at debug level instead of as warnings with a stack (waiting for a slot retries often).
 */
function refusal(reason: string, retryable: boolean, message: string): ApplicationFailure {
  const category = ApplicationFailureCategory.BENIGN;
  if (retryable)
    return ApplicationFailure.create({ type: LEDGER_FAILURE_TYPES.busy, message, nonRetryable: false, category });
  return ApplicationFailure.create({
    type: LEDGER_FAILURE_TYPES.refused,
    message,
    nonRetryable: true,
    details: [{ reason, message } satisfies LedgerRefusalDetails],
    category,
  });
}

/** Waits for `work`, heartbeating meanwhile; a cancellation of the activity ends the wait. */
async function heartbeating<T>(work: Promise<T>): Promise<T> {
  const ctx = Context.current();
  ctx.heartbeat();
  const timer = setInterval(() => ctx.heartbeat(), HEARTBEAT_EVERY_MS);
  // On cancellation the call is abandoned; its late outcome must not surface as unhandled.
  work.catch(() => undefined);
  try {
    return await Promise.race([work, ctx.cancelled]);
  } finally {
    clearInterval(timer);
  }
}
