/**
 * The run's message handlers: one per entry of the message table (messages.ts), each mapped here to
 * the rule of the run it calls. Queries answer from the run's views, updates validate before they
 * reach history and answer with a verdict, signals apply or are recorded as rejected. A
 * TeamControlError reaches the client as the update's failure; anything else is a bug.
 */
import { ApplicationFailure, condition, patched, setHandler, sleep, workflowInfo } from '@temporalio/workflow';
import type { ExtendReservationRequest, ExtendReservationVerdict } from '../contract';
import { askAnchor, type AttemptMessage } from '../activities/interface';
import { TeamControlError } from '../plan/requests/control';
import { callerOf } from '../plan/requests/caller';
import { AttemptConfirmations } from '../team/governance';
import { ATTEMPT_WAITS } from '../team/bounds';
import type { TeamRun } from '../team/run';
import { withIsoTimes as iso } from './iso-times';
import {
  TEAM_RUN_MESSAGES,
  type QueryMessage,
  type SignalMessage,
  type TeamRunMessage,
  type TeamRunMessages,
  type UpdateMessage,
} from './messages';
import { agentStepsHandler, agentStepsSignal, steerRule } from './agents';
import { LEDGER_ABORT_CONFIRMED, type LedgerExtensions } from '../ledger/run-ledger';
import { attemptRunningSignal, confirmAttemptRequest } from './stop-channel';
import { askParent, mayAskParent, oneAskAtATime, registerChildCarve } from './child-budget';
import { SIGNED_ASKS, SignedAsks } from './signed-asks';
import { SHARED_PROOF_KEYS, confirmingKey, keyBeingConfirmed } from './proof-keys';

/** What an update calls: its validator's check and the rule that applies it. */
export interface UpdateRule<Ret, Request> {
  validate: (request: Request) => void;
  /**
   * A promise where the rule must ask elsewhere before it answers (an extension the shared ledger must grant too);
   * `arrivedAt`: when the request reached the run, before its worker's confirmation (for a message with `sentBy`).
   */
  apply: (request: Request, arrivedAt?: number) => Ret | Promise<Ret>;
  /**
   * For a message a task may send as its attempt (sendMessage, readInbox, addTasks): the task and token
   * its worker is asked to confirm before the run takes the request as the task's.
   */
  sentBy?: (request: Request) => { key: string; fencingToken: unknown };
}

type RuleOf<M> =
  M extends QueryMessage<infer Ret, infer Args>
    ? (...args: Args) => Ret
    : M extends SignalMessage<infer Args>
      ? (...args: Args) => void
      : M extends UpdateMessage<infer Ret, infer Request>
        ? UpdateRule<Ret, Request>
        : never;

/** The rule of every message of the table: a message without one does not compile. */
export type MessageRules = { [K in keyof TeamRunMessages]: RuleOf<TeamRunMessages[K]> };

/** Each message mapped to the run's rule; the views that hold timestamps get their ISO twins here. */
export function messageRules(run: TeamRun, now: () => number, ledger?: LedgerExtensions): MessageRules {
  return {
    status: () => iso(run.status(now())),
    tasks: (query) => iso(run.tasksPage(query ?? {})),
    activeClaims: () => iso(run.activeClaims()),
    adjudications: () => iso(run.adjudicationsView()),
    budget: () => run.budgetView(now()),
    events: (query) => iso(run.eventsView(query ?? {})),
    members: () => run.membersView(),
    messages: (query) => run.messagesView(query ?? {}),
    sendMessage: {
      validate: (request) => run.validateSendMessage(request),
      apply: (request) => run.sendMessage(request, now()),
      sentBy: (request) => ({ key: request.from, fencingToken: request.fencingToken }),
    },
    readInbox: {
      validate: (request) => run.validateReadInbox(request),
      apply: (request) => run.readInbox(request, now()),
      sentBy: (request) => ({ key: request.key, fencingToken: request.fencingToken }),
    },
    // The signal forms: a request that cannot apply is recorded as `control:rejected`, never thrown.
    signalInterrupt: (request) => {
      run.interrupt(request, now());
    },
    signalAbort: (request) => {
      // One naming the run's ledger as its actor applies once the ledger confirms it aborted this run.
      const asks = ledger ? run.abortNeedsLedger(request) : null;
      if (ledger && asks && patched(LEDGER_ABORT_CONFIRMED)) {
        ledger.confirmAbort(asks.since, (answer) => run.abort(request, now(), answer));
        return;
      }
      run.abort(request, now());
    },
    interrupt: {
      validate: (request) => run.validateInterrupt(request),
      apply: (request) => run.interrupt(request, now()),
    },
    abort: { validate: (request) => run.validateAbort(request), apply: (request) => run.abort(request, now()) },
    adjudicate: {
      validate: (request) => run.validateAdjudicate(request),
      apply: (request) => run.adjudicate(request, now()),
    },
    reopenTask: {
      validate: (request) => void run.reopenTask(request),
      apply: (request) => run.reopenTask(request, now()),
    },
    bindCase: {
      validate: (request) => run.validateBindCase(request),
      apply: (request) => run.bindCase(request, now()),
    },
    tightenBudget: {
      validate: (request) => run.validateTightenBudget(request),
      apply: (request) => {
        const before = run.wallDeadline();
        const verdict = run.tightenBudget(request, now());
        const after = run.wallDeadline();
        if (after !== null && (before === null || after < before)) armWallClock(run, after);
        return verdict;
      },
    },
    addTasks: {
      validate: (request) => run.validateAddTasks(request),
      // Sent with the run's start, an addition waits for the run's ledger to say what the run may add (ledger-tree.ts).
      apply: (request) =>
        run.ledgerRegisteringNow
          ? condition(() => !run.ledgerRegisteringNow).then(() => run.addTasks(request, now()))
          : run.addTasks(request, now()),
      sentBy: (request) => ({ key: request.parent ?? '', fencingToken: request.fencingToken }),
    },
    extendReservation: {
      validate: (request) => run.validateExtendReservation(request, mayAskParent(run)),
      apply: (request, arrivedAt) => extendReservation(run, request, ledger, arrivedAt ?? now()),
      sentBy: (request) => ({ key: request.key, fencingToken: request.fencingToken }),
    },
    linkRun: {
      validate: (request) => run.validateLinkRun(request),
      apply: (request) => run.linkRun(request, now()),
      sentBy: (request) => ({ key: request.key, fencingToken: request.fencingToken }),
    },
    steer: steerRule(run, now),
  };
}

/** The run grants first (so two asks cannot both take its last tokens), then the ledger; its refusal undoes it. */
async function extendReservation(
  run: TeamRun,
  request: ExtendReservationRequest,
  ledger: LedgerExtensions | undefined,
  arrivedAt: number,
): Promise<ExtendReservationVerdict> {
  // A child run asks its parent first for what its carve lacks (workflows/child-budget.ts), one ask at a time.
  const { before, verdict } = await oneAskAtATime(run, async () => {
    await askParent(run, request);
    const before = run.activeClaims().find((claim) => claim.key === request.key);
    return { before, verdict: run.extendReservation(request, Date.now()) };
  });
  if (!ledger || !before) return verdict;
  // Tokens and dollars, and model calls where the ledger's `maxTurns` counts them (team/ledger-tree.ts).
  const ask = run.ledgerAskOf(request);
  if (!ask) return verdict;
  const { extension, turns } = ask;
  // The ledger's answer must reach the attempt inside its gateway's wait, which began when the request arrived.
  const refused = await ledger.extend(
    before.leaseId,
    extension,
    arrivedAt + ATTEMPT_WAITS.verdictMs - ATTEMPT_WAITS.marginMs,
    turns,
  );
  if (!refused) return verdict;
  run.withdrawExtension(request.key, before.fencingToken, extension, turns);
  throw new TeamControlError(refused.reason, `extendReservation: ${refused.message}`);
}

/**
 * tightenBudget brought the wall-clock deadline nearer (or set one): a timer of its own marks the run then (the
 * loop wakes), as the one armed at the start does. A timer for a later deadline finds the run marked already.
 */
function armWallClock(run: TeamRun, deadline: number): void {
  if (deadline <= Date.now()) return;
  void sleep(Math.max(1, deadline - Date.now())).then(() => run.wallExpired(Date.now()));
}

/** `asks`: the messages the run takes on their worker's signature (signed-asks.ts), with what its last run carried. */
export function registerHandlers(run: TeamRun, ledger?: LedgerExtensions, asks = new SignedAsks()): void {
  const now = () => Date.now();
  // A TeamControlError must reach the client as the update's failure, never fail the workflow task.
  const failure = (err: unknown): unknown =>
    // The code leads the message too: the Web UI shows an update's failure message, not its type.
    err instanceof TeamControlError ? ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code) : err;
  const asFailure = <T>(check: () => T): T => {
    try {
      return check();
    } catch (err) {
      throw failure(err);
    }
  };
  const asFailureLater = async <T>(answer: Promise<T>): Promise<T> => {
    try {
      return await answer;
    } catch (err) {
      throw failure(err);
    }
  };
  const confirmations = new AttemptConfirmations();
  const copied = (message: AttemptMessage, nonce: string) =>
    ApplicationFailure.nonRetryable(
      `forbidden: ${message}: attempt nonce ${nonce} was taken already; each request needs a new one`,
      'forbidden',
    );
  // The validator's extra check for a request that carries an attempt's proof (team/governance.ts).
  // A proof naming another queue than the one the attempt announced is refused here, at once.
  const checkProof = (request: unknown, message: AttemptMessage, key: string, fencingToken: unknown) => {
    const caller = callerOf(request, message);
    if (caller.attempt && asks.taken(caller.attempt.nonce)) throw copied(message, caller.attempt.nonce);
    asFailure(() => confirmations.check(caller, message, run.attemptQueue(key, fencingToken)));
  };
  /**
   * A request with an attempt's proof is the task's only once the worker it names confirms it, or
   * when it carries that worker's signature under the key the worker confirmed (signed-asks.ts); the
   * request is then checked again, as the attempt may have settled meanwhile.
   */
  const confirmed = async (request: unknown, message: AttemptMessage, key: string, fencingToken: unknown) => {
    const { attempt, request: sent } = callerOf(request, message);
    if (!attempt) return;
    const ask = { workflowId: workflowInfo().workflowId, key, fencingToken: Number(fencingToken), message };
    // Runs recorded before messages were signed confirmed each as sent, without its anchor.
    const anchor = attempt.signingKey && patched(SIGNED_ASKS) ? askAnchor(message, sent) : undefined;
    // Two copies in one activation pass their validators together: the handler decides which one is the message.
    const takenOnSignature = () => {
      if (asks.taken(attempt.nonce)) throw copied(message, attempt.nonce);
      return asks.take(attempt, ask, anchor!, Date.now());
    };
    if (anchor !== undefined) {
      if (takenOnSignature()) return;
      // Its queue's key is being confirmed: checked on its signature once it is (proof-keys.ts).
      const pending = patched(SHARED_PROOF_KEYS) ? keyBeingConfirmed(run, attempt) : null;
      if (pending) {
        await pending;
        if (takenOnSignature()) return;
      }
    }
    confirmations.begin(attempt, run.attemptQueue(key, fencingToken));
    let yes = false;
    try {
      const signed = anchor === undefined ? {} : { anchor, signingKey: attempt.signingKey };
      const signs = anchor !== undefined && asks.signs(attempt, ask, anchor);
      yes = await confirmingKey(run, attempt, signs, async () => {
        const said = await confirmAttemptRequest(attempt, { ...ask, ...signed });
        if (said && anchor !== undefined) asks.confirmed(attempt, ask, anchor);
        return said;
      });
    } finally {
      confirmations.end(attempt, yes);
    }
    if (!yes) {
      throw ApplicationFailure.nonRetryable(
        `forbidden: ${message}: could not confirm the request came from the attempt of "${key}" ` +
          `(its worker did not vouch for nonce ${attempt.nonce})`,
        'forbidden',
      );
    }
  };
  // The worker's own signal, not the contract's: it has no entry in the table and no description.
  // The current details, made as they are read, show it running from now on.
  setHandler(attemptRunningSignal, (announcement) => void run.attemptsRunning(announcement));
  setHandler(agentStepsSignal, agentStepsHandler(run, now, confirmations));
  registerChildCarve(run, ledger);
  const rules = messageRules(run, now, ledger);
  const table = Object.entries(TEAM_RUN_MESSAGES) as Array<[keyof TeamRunMessages, TeamRunMessage]>;
  for (const [method, { definition, description }] of table) {
    if (definition.type === 'query') {
      setHandler(definition, rules[method] as (...args: unknown[]) => unknown, { description });
    } else if (definition.type === 'signal') {
      setHandler(definition, rules[method] as (...args: unknown[]) => void, { description });
    } else {
      const { validate, apply, sentBy } = rules[method] as UpdateRule<unknown, unknown>;
      // Only the attempt's own messages name who sent them (sentBy), so the name is one of AttemptMessage.
      const message = definition.name as AttemptMessage;
      const validator = (request: unknown) => {
        asFailure(() => validate(request));
        if (sentBy) checkProof(request, message, sentBy(request).key, sentBy(request).fencingToken);
      };
      const handler = sentBy
        ? async (request: unknown) => {
            const { key, fencingToken } = sentBy(request);
            const arrivedAt = Date.now();
            await confirmed(request, message, key, fencingToken);
            const answer = asFailure(() => apply(request, arrivedAt));
            // Only a rule that asks elsewhere waits here: the others answer in the same step as before.
            return answer instanceof Promise ? asFailureLater(answer) : answer;
          }
        : (request: unknown) => asFailure(() => apply(request));
      setHandler(definition, handler, { validator, description });
    }
  }
}
