/**
 * The run's message handlers: queries answer from the run's views, updates validate before they
 * reach history and answer with a verdict, signals apply or are recorded as rejected. A
 * TeamControlError reaches the client as the update's failure; anything else is a bug.
 */
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import { TeamControlError } from '../team/control';
import type { TeamRun } from '../team/run';
import { withIsoTimes as iso } from './iso-times';
import * as msg from './messages';
import { attemptRunningSignal } from './stop-channel';

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
  setHandler(msg.sendMessageUpdate, (request) => asFailure(() => run.sendMessage(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateSendMessage(request));
    },
    description:
      'Send a mailbox message: { from, to: task key | teammate-<n> | coordinator | "*", subject?, body, ' +
      'fencingToken? (a task sending), actor? }',
  });
  setHandler(msg.readInboxUpdate, (request) => asFailure(() => run.readInbox(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateReadInbox(request));
    },
    description: "Read a running task's inbox: { key, fencingToken, peek? } (advances its cursor unless peek)",
  });
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
  setHandler(msg.addTasksUpdate, (request) => asFailure(() => run.addTasks(request, now())), {
    validator: (request) => {
      asFailure(() => run.validateAddTasks(request));
    },
    description: 'Add tasks to the running graph: { tasks: [TaskSpec...], parent?, fencingToken?, requestId, actor? }',
  });
}
