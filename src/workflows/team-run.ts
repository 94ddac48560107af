/**
 * `teamRun`: one team run as a Temporal workflow. A thin shell over the pure run (team/run.ts):
 * each step claims and launches attempts, publishes where the run is, and then closes, hands over
 * to a fresh run (continue-as-new) or waits for the next change. Attempts, handlers, hooks and
 * what the run shows outside each live in their own module beside this one.
 */
import {
  ApplicationFailure,
  CancellationScope,
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { RunResult } from '../contract';
import { CONTINUE_AS_NEW_HISTORY_BYTES, type TeamPlanInput } from '../plan/schema';
import { formatProblems, validatePlan } from '../plan/validate';
import { FAILURE_TYPES } from '../activities/interface';
import { TeamRun, type TeamRunSnapshot } from '../team/run';
import { packSnapshot, unpackSnapshot, type PackedSnapshot } from '../team/snapshot';
import { handOverDue, handOverOnAnySuggestion } from '../team/handover';
import { Attempts } from './attempts';
import { closeAsCanceled } from './cancel';
import { LinkedRunAborts } from './coordinated';
import { RecentLinks } from './details';
import { registerHandlers } from './handlers';
import { SignedAsks, carriedAsks, type CarriedAsks } from './signed-asks';
import { SHARED_PROOF_KEYS, proofKeysOf } from './proof-keys';
import { IdleHooks } from './idle-hooks';
import { Publisher } from './publish';
import { handOver } from './stop-channel';
import { sendMailHints } from './mail-hints';
import { TaskSpans } from './task-spans';
import { ParentTaskAsks } from './child-budget';
import { LEDGER_REGISTER_BLOCK, LEDGER_TREE, RunLedger } from '../ledger/run-ledger';

/** A plan; or, from the run's own continue-as-new, its state and the nonces of its signed messages (signed-asks.ts). */
export type TeamRunInput = TeamPlanInput | { continued: PackedSnapshot | TeamRunSnapshot; asks?: CarriedAsks };

export async function teamRun(input: TeamRunInput): Promise<RunResult> {
  const run = begin(input);
  run.usePatches(patched);
  const ledger =
    run.ledgerId === null
      ? null
      : new RunLedger(
          run.ledgerId,
          run.workflowId,
          run.status(Date.now()).name,
          (claim, type, fields) =>
            run.ledgerEvent(
              type,
              { key: claim.key, fencingToken: claim.fencingToken, ledger: run.ledgerId, ...fields },
              Date.now(),
            ),
          run.ledgerBlocks,
        );
  // A ledger bounds what the run adds, how deep, how long and its model calls (ledger/tree.ts): additions wait for it.
  const ledgerTree = ledger !== null && patched(LEDGER_TREE);
  if (ledgerTree) run.ledgerRegistering();
  // Links the latest attempts printed, for the current details only: never in the run's state.
  const links = new RecentLinks();
  const spans = new TaskSpans(run.workflowId);
  const attempts = new Attempts(run, ledger, links, spans);
  const hooks = new IdleHooks(run);
  const publisher = new Publisher(run, links, ledger, spans);
  const linked = new LinkedRunAborts(run);
  const taskAsks = new ParentTaskAsks(run);

  const keys = proofKeysOf(run);
  const asks = new SignedAsks(carriedAsks(input), {
    keys: keys.asks,
    also: () => (patched(SHARED_PROOF_KEYS) ? keys.results : null),
  });
  registerHandlers(run, ledger ?? undefined, asks);
  // Attempts the previous run carried over (src/team/handover.ts) run on: re-attach to them first.
  for (const adoption of run.adoptions()) attempts.adopt(adoption);
  // Temporal's own cancellation (`temporal workflow cancel`, the UI's button) is a coordinator abort.
  void CancellationScope.current().cancelRequested.catch(() => run.cancelRequested(Date.now()));

  return CancellationScope.nonCancellable(async () => {
    if (ledger) {
      const share = { spawns: run.ledgerSpawnAsk(), firstRunId: workflowInfo().firstExecutionRunId };
      // A run on blocks launches its first attempts first: their block is asked with the registration, one ledger
      // call before its first attempt instead of two (ledger/run-ledger.ts). They start once both are answered.
      if (run.ledgerBlocks && patched(LEDGER_REGISTER_BLOCK)) {
        ledger.registersNext();
        for (const claim of run.claim(Date.now())) attempts.launch(claim);
      }
      const grant = await ledger.register(ledgerTree ? share : undefined);
      if (ledgerTree) run.ledgerRegistered(ledger.id, grant, Date.now());
    }
    const deadline = run.wallDeadline();
    if (deadline !== null) {
      // Not awaited: the wall clock runs beside the loop and only marks the run (the loop then wakes).
      void sleep(Math.max(1, deadline - Date.now())).then(() => run.wallExpired(Date.now()));
    }
    let handingOver = false;
    // Whether this handover may carry long attempts rather than wait for them: asked once, as it
    // begins with attempts in flight (runs recorded before carrying existed keep waiting).
    let carrying = false;
    for (;;) {
      const now = Date.now();
      // Stops asked for while the run waited (takeover, abort, wall clock) go out first.
      attempts.cancelStopped();
      linked.send();
      // A cancelled run closes as Canceled here, with its result: it never hands over.
      if (run.cancelling) handingOver = false;
      else if (!handingOver) {
        handingOver = startHandover(run, now);
        carrying = handingOver && run.activeCount > 0 && patched(CARRY_ATTEMPTS);
      }
      run.expireApprovals(now);
      if (!handingOver) {
        for (const claim of run.claim(now)) attempts.launch(claim);
        taskAsks.send();
      }
      hooks.start();
      sendMailHints(run);
      // A claim past the wall deadline stops the run before the timer fires: cancel at once.
      attempts.cancelStopped();
      publisher.publish();
      if (run.phase() === 'done') break;
      if (handingOver && !taskAsks.asking && (run.activeCount === 0 || (carrying && run.mayHandOver()))) {
        // Long attempts still running are carried, not waited for: their workers keep them for
        // the next run (which adopts them), and the old run's activities end unanswered.
        const carried = run.activeCount;
        if (carried > 0) await handOver(run.handOverRequests());
        // Updates and signals already delivered have run; the snapshot is taken in this same
        // workflow task, and one that reaches the server meanwhile makes it refuse the
        // continue-as-new (UnhandledCommand) and replay this task with it included. Updates it
        // has not delivered yet go to the next run.
        await ledger?.drain();
        await linked.sent();
        await hooks.drained();
        await condition(allHandlersFinished);
        run.record('run:continued-as-new', Date.now(), {
          historyLength: workflowInfo().historyLength,
          ...(carried > 0 ? { carried: run.activeCount } : {}),
        });
        spans.endAll(Date.now(), true);
        const carriedNonces = asks.carried(Date.now());
        return continueAsNew<typeof teamRun>({
          continued: packSnapshot(run.snapshot()),
          ...(carriedNonces.nonces.length ? { asks: carriedNonces } : {}),
        });
      }
      // Wait for the next change, or the next time the run must act by itself.
      const seen = run.version;
      const wait = run.beginWait(now, handingOver);
      // An attempt announcing its worker changes no state the loop waits on, but may let a
      // carrying handover go ahead: wake for that too.
      const changed = () => run.version !== seen || (carrying && run.mayHandOver());
      let moved = true;
      if (wait.timeoutMs === null) await condition(changed);
      else moved = wait.timeoutMs > 0 && (await condition(changed, wait.timeoutMs));
      if (wait.closesAt !== null && !moved && wait.closesAt <= Date.now()) run.closeUnresolved(Date.now());
    }
    await linked.sent();
    const ledgerAtEnd = await ledger?.unregister(ledgerTree ? run.addedTasks : undefined);
    const result = run.finish(Date.now(), ledgerAtEnd ?? undefined);
    hooks.start();
    await hooks.drained();
    await condition(allHandlersFinished);
    publisher.publish();
    spans.endAll(Date.now(), false);
    if (run.cancelling) return closeAsCanceled(result);
    return result;
  });
}

function begin(input: TeamRunInput): TeamRun {
  if (input && typeof input === 'object' && 'continued' in input) return new TeamRun(unpackSnapshot(input.continued));
  const validation = validatePlan(input);
  if (!validation.ok) {
    throw ApplicationFailure.create({
      type: FAILURE_TYPES.invalidPlan,
      message: `invalid team plan:\n${formatProblems(validation.problems)}`,
      nonRetryable: true,
      details: [validation.problems],
    });
  }
  return TeamRun.start(validation.plan, workflowInfo().workflowId, Date.now());
}

/** From here nothing new starts: in-flight attempts settle in this run, then it hands over. */
function startHandover(run: TeamRun, now: number): boolean {
  if (!shouldContinueAsNew(run.continueAsNewAfterEvents)) return false;
  const { historyLength, historySize } = workflowInfo();
  run.record('run:continuing-as-new', now, { historyLength, historySize, active: run.activeCount });
  return true;
}

function shouldContinueAsNew(afterEvents: number): boolean {
  const info = workflowInfo();
  // Runs whose history began before the size-only rule keep following every suggestion (replay stays deterministic).
  const due = info.continueAsNewSuggested && !patched(HANDOVER_ON_SIZE_ONLY) ? handOverOnAnySuggestion : handOverDue;
  return due(info, afterEvents, CONTINUE_AS_NEW_HISTORY_BYTES);
}

const HANDOVER_ON_SIZE_ONLY = 'teamrun-handover-on-size-only';
/** Runs whose history began before attempts could be carried waited for every attempt (replay stays deterministic). */
const CARRY_ATTEMPTS = 'teamrun-carry-attempts';
