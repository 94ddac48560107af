/**
 * The run's message handlers: queries answer from the run's views, updates validate before they
 * reach history and answer with a verdict, signals apply or are recorded as rejected. A
 * TeamControlError reaches the client as the update's failure; anything else is a bug.
 */
import { ApplicationFailure, setHandler, workflowInfo } from '@temporalio/workflow';
import type { AttemptMessage } from '../activities/interface';
import { TeamControlError } from '../plan/requests/control';
import { callerOf } from '../plan/requests/caller';
import { AttemptConfirmations } from '../team/governance';
import type { TeamRun } from '../team/run';
import { withIsoTimes as iso } from './iso-times';
import * as msg from './messages';
import { attemptRunningSignal, confirmAttemptRequest } from './stop-channel';

export function registerHandlers(run: TeamRun): void {
  const now = () => Date.now();
  // A TeamControlError must reach the client as the update's failure, never fail the workflow task.
  const asFailure = <T>(check: () => T): T => {
    try {
      return check();
    } catch (err) {
      // The code leads the message too: the Web UI shows an update's failure message, not its type.
      if (err instanceof TeamControlError)
        throw ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
      throw err;
    }
  };
  const confirmations = new AttemptConfirmations();
  // The validator's extra check for a request that carries an attempt's proof (team/governance.ts).
  const checkProof = (request: unknown, message: AttemptMessage) =>
    asFailure(() => confirmations.check(callerOf(request, message), message));
  /**
   * A request with an attempt's proof is the task's only once the worker it names confirms it;
   * the request is then checked again, as the attempt may have settled meanwhile.
   */
  const confirmed = async (request: unknown, message: AttemptMessage, key: string, fencingToken: unknown) => {
    const { attempt } = callerOf(request, message);
    if (!attempt) return;
    confirmations.begin(attempt);
    let yes = false;
    try {
      const { workflowId } = workflowInfo();
      yes = await confirmAttemptRequest(attempt, { workflowId, key, fencingToken: Number(fencingToken), message });
    } finally {
      confirmations.end();
    }
    if (!yes) {
      throw ApplicationFailure.nonRetryable(
        `forbidden: ${message}: could not confirm the request came from the attempt of "${key}" ` +
          `(its worker did not vouch for nonce ${attempt.nonce})`,
        'forbidden',
      );
    }
  };
  setHandler(attemptRunningSignal, (announcement) => {
    run.attemptsRunning(announcement);
  });
  setHandler(msg.statusQuery, () => iso(run.status(now())), {
    description: 'Progress, budget and pending adjudications',
  });
  setHandler(msg.tasksQuery, (query) => iso(run.tasksPage(query ?? {})), {
    description: 'Tasks, paged: { status?, offset?, limit? } (default limit 1000, at most 2000)',
  });
  setHandler(msg.activeClaimsQuery, () => iso(run.activeClaims()), {
    description: 'Attempts holding a lease now, with the fencing token to interrupt them',
  });
  setHandler(msg.adjudicationsQuery, () => iso(run.adjudicationsView()), {
    description: 'Adjudication records, pending (decision null) and decided',
  });
  setHandler(msg.budgetQuery, () => run.budgetView(now()), {
    description: 'Limits, used, reserved and remaining budget',
  });
  setHandler(msg.eventsQuery, (query) => iso(run.eventsView(query ?? {})), {
    description: 'Run events after a sequence number: { after?, limit? }',
  });
  setHandler(msg.membersQuery, () => run.membersView(), {
    description:
      'One row per teammate slot: { holder, state: idle|running|shutdown, currentTask, completed, failed, lastError, ' +
      'since }',
  });
  setHandler(msg.messagesQuery, (query) => run.messagesView(query ?? {}), {
    description: 'Mailbox messages held: { to?, after?, limit? } (at most 100); nextId continues',
  });
  setHandler(
    msg.sendMessageUpdate,
    async (request) => {
      await confirmed(request, 'sendMessage', request.from, request.fencingToken);
      return asFailure(() => run.sendMessage(request, now()));
    },
    {
      validator: (request) => {
        asFailure(() => run.validateSendMessage(request));
        checkProof(request, 'sendMessage');
      },
      description:
        'Send a mailbox message: { from, to: task key | teammate-<n> | coordinator | "*", subject?, body, ' +
        "fencingToken? (a task sending), actor?, attempt? (its worker's proof) }",
    },
  );
  setHandler(
    msg.readInboxUpdate,
    async (request) => {
      await confirmed(request, 'readInbox', request.key, request.fencingToken);
      return asFailure(() => run.readInbox(request, now()));
    },
    {
      validator: (request) => {
        asFailure(() => run.validateReadInbox(request));
        checkProof(request, 'readInbox');
      },
      description:
        "Read a running task's inbox: { key, fencingToken, peek?, attempt? } (advances its cursor unless peek)",
    },
  );
  setHandler(
    msg.interruptTaskSignal,
    (request) => {
      run.interrupt(request, now());
    },
    { description: 'Take over a running task: { key, fencingToken, requestId?, actor?, reason?, evidenceDigest? }' },
  );
  setHandler(
    msg.abortRunSignal,
    (request) => {
      run.abort(request, now());
    },
    { description: 'Abort the run: { reason?, requestId?, actor?, requireAdjudication? }' },
  );
  setHandler(msg.interruptTaskUpdate, (request) => run.interrupt(request, now()), {
    validator: (request) => asFailure(() => run.validateInterrupt(request)),
    description: 'Take over a running task and get the verdict: { key, fencingToken, requestId?, actor?, reason? }',
  });
  setHandler(msg.abortRunUpdate, (request?) => run.abort(request, now()), {
    validator: (request?) => asFailure(() => run.validateAbort(request)),
    description: 'Abort the run and get the number of attempts stopped: { reason?, requestId?, actor? }',
  });
  setHandler(msg.adjudicateUpdate, (request) => asFailure(() => run.adjudicate(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateAdjudicate(request));
    },
    description:
      'Decide a task awaiting adjudication: { key, decision: retry|accept|reject, decisionId, actor?, result? }',
  });
  setHandler(
    msg.addTasksUpdate,
    async (request) => {
      await confirmed(request, 'addTasks', request.parent ?? '', request.fencingToken);
      return asFailure(() => run.addTasks(request, now()));
    },
    {
      validator: (request) => {
        asFailure(() => run.validateAddTasks(request));
        checkProof(request, 'addTasks');
      },
      description:
        'Add tasks to the running graph: { tasks: [TaskSpec...], parent?, fencingToken?, requestId, actor?, attempt? }',
    },
  );
}
