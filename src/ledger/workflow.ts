import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  patched,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ZodType } from 'zod';
import { Ledger, type LedgerStatus } from './rules';
import type { OperatorRefusal } from './operators';
import {
  AbortAllRequestSchema,
  AcquireRequestSchema,
  ConfigureRequestSchema,
  ExtendRequestSchema,
  LedgerIdSchema,
  LedgerLimitsSchema,
  LedgerOperatorsSchema,
  LedgerRequestError,
  RegisterRequestSchema,
  RenewRequestSchema,
  RenewSlotsRequestSchema,
  ResolveRequestSchema,
  SettleRequestSchema,
  UnregisterRequestSchema,
  ledgerActor,
  parseLedgerRequest,
} from '../plan/requests/ledger';
import * as lm from './messages';
import { WorkerDoors } from './door-handlers';
import { carriedDoors, type SignedDoorsSnapshot } from './signed-doors';
import { BatchRequestSchema, applyBatch, batchRefusals } from './batch';
import { detailsOnQuery } from '../sdk/details-on-query';
import { markdownText } from '../team/markdown';
import { abortRunSignal } from '../workflows/messages';

/**
 * Renewals arrive as signals (a few events each), so the ledger hands over well before
 * Temporal's history warnings, and whenever the server suggests it.
 */
const CONTINUE_AS_NEW_AT_EVENTS = 4_000;
const MIN_CONTINUE_AS_NEW_AT_EVENTS = 100;

/**
 * `budgetLedger`: one shared budget for many team runs (one workflow per ledger id). Runs acquire a slot before each
 * attempt and settle it after; a charge that crosses a hard limit, or an operator's `abortAll`, sends `abortRun` to
 * every registered run. It runs until cancelled or terminated, handing over to a fresh history with continue-as-new.
 */
export async function budgetLedger(input: lm.BudgetLedgerInput): Promise<void> {
  const ledger = begin(input);
  const handOverAt = Math.max(
    MIN_CONTINUE_AS_NEW_AT_EVENTS,
    input.continueAsNewAfterEvents ?? CONTINUE_AS_NEW_AT_EVENTS,
  );
  const handingOver = () => workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= handOverAt;
  // The wait below wakes for the history's length only in activations that carry an event (see the patch's note).
  const quietHandover = patched(LEDGER_QUIET_HANDOVER_PATCH);
  const growth = { noted: 0 };
  const signalling = new Set<Promise<void>>();

  const cascade = (runs: string[]) => {
    const abort = ledger.status(Date.now()).lastAbort;
    const actor = ledgerActor(ledger.id);
    for (const workflowId of runs) {
      const sent = getExternalWorkflowHandle(workflowId)
        .signal(abortRunSignal, { reason: abort?.reason, actor, requestId: `${actor}@${abort?.at ?? Date.now()}` })
        // The run is gone (finished or terminated without unregistering): nothing left to stop.
        .catch(() => ledger.forget(workflowId, Date.now()))
        .finally(() => signalling.delete(sent));
      signalling.add(sent);
    }
  };

  // Only the ledger's own continue-as-new carries its doors (a planted one failed in `begin`).
  const carried = 'continued' in input ? carriedDoors(input.doors) : undefined;
  const doors = registerHandlers(ledger, cascade, carried, () => {
    if (quietHandover && handingOver()) growth.noted += 1;
  });
  // Made as they are read (the Web UI, `teamrun ledger status`), not on every step of a busy ledger.
  detailsOnQuery(() => details(ledger.status(Date.now())));
  for (;;) {
    ledger.expire(Date.now());
    if (handingOver()) {
      await condition(allHandlersFinished);
      await Promise.all(signalling);
      return continueAsNew<typeof budgetLedger>({
        continued: ledger.snapshot(),
        doors: doors.snapshot(Date.now()),
        continueAsNewAfterEvents: input.continueAsNewAfterEvents,
      });
    }
    const seen = ledger.version;
    const noted = growth.noted;
    const changed = () => ledger.version !== seen || growth.noted !== noted || (!quietHandover && handingOver());
    // Renewals only push deadlines later, so they do not wake the loop (unless the history grew past its bound):
    // a timer that fires early finds nothing expired and sets the next one.
    const deadline = ledger.nextDeadline();
    if (deadline === null) await condition(changed);
    else await condition(changed, Math.max(1, deadline - Date.now()));
  }
}

/**
 * Since this patch the ledger's wait no longer reads its history's length in its wake condition, which Temporal
 * evaluates in every activation, also in one that carries only an update its validator rejected. Such an update
 * leaves no event, so on replay that activation does not happen: a ledger whose history crossed its hand-over bound
 * in one cancelled its timer there, and every later replay of its history (after a worker restart, or the server's
 * UnhandledCommand at its continue-as-new) failed as nondeterministic, its workflow task retried for ever and every
 * run on it stalled (seen in bench section 12 at 4,002 events). Now the loop checks the bound when it wakes for its
 * own reasons (a change, a timer), and a renewal, which changes nothing, wakes it once the bound is passed.
 */
export const LEDGER_QUIET_HANDOVER_PATCH = 'teamrun-ledger-quiet-handover';

/**
 * Marks a ledger that takes continued books only from its own continue-as-new (a run started with them fails): a
 * ledger recorded before replays as it ran.
 */
export const LEDGER_PLANTED_PATCH = 'teamrun-ledger-planted';
/**
 * Ledgers recorded before slots were renewed only with a worker's proof (`renewSlots`) took the unproven `renew`
 * signal: they replay with it.
 */
export const LEDGER_RENEW_PROVEN = 'teamrun-ledger-renew-proven';

function begin(input: lm.BudgetLedgerInput): Ledger {
  if (input && typeof input === 'object' && 'continued' in input) {
    const planted = plantedBooks();
    // Failed rather than started empty: nothing in forged books (not even the id or limits) is to be trusted, and a
    // failed run leaves the id to the real ledger, which a run's registration then starts.
    if (planted && patched(LEDGER_PLANTED_PATCH)) {
      throw ApplicationFailure.nonRetryable(
        `${workflowInfo().workflowId}: a ledger's continued books come only from its own continue-as-new; ` +
          `this run was started with them (${planted}). Start a ledger with { id, limits, operators? } ` +
          '(teamrun ledger create), never with { continued }',
        lm.LEDGER_PLANTED,
      );
    }
    return new Ledger(input.continued);
  }
  try {
    const id = parseLedgerRequest(LedgerIdSchema, input?.id, 'budgetLedger input id');
    const limits = parseLedgerRequest(LedgerLimitsSchema, input?.limits ?? {}, 'budgetLedger input limits');
    const operators =
      input?.operators === undefined
        ? undefined
        : parseLedgerRequest(LedgerOperatorsSchema, input.operators, 'budgetLedger input operators');
    return Ledger.create(id, limits, Date.now(), operators);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'InvalidLedger');
  }
}

/**
 * Why this run's input cannot be its own continue-as-new's, or null when it is. Anyone who may start workflows may
 * start a ledger: only its handover sets the run it continues, with no cron schedule and no retry policy (a cron
 * schedule's next run and a retry also start with the run they follow set, and the planter's input).
 */
function plantedBooks(): string | null {
  const { continuedFromExecutionRunId, cronSchedule, retryPolicy, attempt } = workflowInfo();
  if (continuedFromExecutionRunId === undefined) return 'it continues no run';
  if (cronSchedule !== undefined) return `it is a run of the cron schedule "${cronSchedule}"`;
  if (retryPolicy !== undefined || attempt > 1) return `it is attempt ${attempt} under a retry policy`;
  return null;
}

/** `renewed` runs after each renewal: it changes nothing the loop waits on, but may find the history past its bound. */
function registerHandlers(
  ledger: Ledger,
  cascade: (runs: string[]) => void,
  carried: SignedDoorsSnapshot | undefined,
  renewed: () => void,
): WorkerDoors {
  const now = () => Date.now();
  const parse = <T>(schema: ZodType<T>, payload: unknown, message: string): T => {
    try {
      return parseLedgerRequest(schema, payload, message);
    } catch (err) {
      if (err instanceof LedgerRequestError) throw ApplicationFailure.nonRetryable(err.message, err.code);
      throw err;
    }
  };

  // A refusal is decided in a validator, so it leaves no trace in the ledger's history.
  const refuse = (refusal: OperatorRefusal | null) => {
    if (refusal) throw ApplicationFailure.nonRetryable(`${refusal.code}: ${refusal.message}`, refusal.code);
  };

  setHandler(lm.ledgerStatusQuery, () => ledger.status(now()), {
    description: 'Limits, attempts in flight, used, reserved and remaining budget, registered runs',
  });
  setHandler(
    lm.ledgerConfigureUpdate,
    (request) => {
      ledger.configure(parse(ConfigureRequestSchema, request, 'configure'), now());
      return ledger.status(now());
    },
    {
      validator: (request) => refuse(ledger.checkConfigure(parse(ConfigureRequestSchema, request, 'configure'))),
      description:
        'Replace the limits, which only tighten unless an operator forces it, and set the operators: ' +
        '{ limits: { maxConcurrent?, maxTokens?, maxUsd?, windowMs? }, force?, actor?, operators? }',
    },
  );
  setHandler(
    lm.ledgerResolveUpdate,
    (request) => {
      const resolved = ledger.resolve(parse(ResolveRequestSchema, request, 'resolve'), now());
      if (!resolved) throw ApplicationFailure.nonRetryable('nothing to resolve', lm.NOTHING_TO_RESOLVE);
      if (resolved.abort.length) cascade(resolved.abort);
      return resolved.verdict;
    },
    {
      validator: (request) => {
        refuse(ledger.checkOperator(parse(ResolveRequestSchema, request, 'resolve').actor, 'resolve'));
        if (ledger.status(now()).recovery === null) {
          const message = `${lm.NOTHING_TO_RESOLVE}: ledger ${ledger.id} has no lost attempts waiting for recovery`;
          throw ApplicationFailure.nonRetryable(message, lm.NOTHING_TO_RESOLVE);
        }
      },
      description:
        'Settle the lost attempts (usage unknown) so runs start attempts again: ' +
        '{ usage: { inputTokens?, ..., costUsd? } } or { release: true } (their reservations charged), with { actor }',
    },
  );
  // The run's own updates: only with its worker's proof, confirmed before they apply, or from an operator.
  const doors = new WorkerDoors(() => ({ id: ledger.id, operators: ledger.operators }), carried);
  setHandler(
    lm.ledgerRegisterUpdate,
    (request) =>
      doors.handle('register', request, RegisterRequestSchema, ({ block, ...registration }) => {
        const verdict = ledger.register(registration, now());
        return block ? { ...verdict, block: ledger.acquire(block, now()) } : verdict;
      }),
    {
      validator: (request) => doors.checkRegistration(request),
      description:
        'Register a run (a cascade abort reaches it), then take its first block: { workflowId, block?, proof }',
    },
  );
  setHandler(
    lm.ledgerUnregisterUpdate,
    // Its totals in the answer: a query after it met a busy ledger (`BusyWorkflow`, ResourceExhausted) and was lost.
    (request) =>
      doors.handle('unregister', request, UnregisterRequestSchema, (r) => ({
        ...ledger.unregister(r, now()),
        ledger: lm.ledgerTotals(ledger.status(now())),
      })),
    {
      validator: (request) => void doors.check('unregister', request, UnregisterRequestSchema),
      description: "Forget a team run that finished: { workflowId, proof } (its worker's)",
    },
  );
  setHandler(
    lm.ledgerAcquireUpdate,
    (request) => doors.handle('acquire', request, AcquireRequestSchema, (r) => ledger.acquire(r, now())),
    {
      // A refusal is decided here, so the many retries of a waiting attempt never reach history.
      validator: (request) => {
        const refusal = ledger.check(doors.check('acquire', request, AcquireRequestSchema), now());
        if (refusal) {
          throw ApplicationFailure.create({
            type: lm.LEDGER_REFUSED,
            message: refusal.message,
            nonRetryable: true,
            details: [{ reason: refusal.reason, retryable: refusal.retryable }],
          });
        }
      },
      description:
        'A slot and a reservation for one attempt: { attemptId, workflowId, reservation: { tokens, usd }, leaseMs, ' +
        "proof } (its worker's)",
    },
  );
  setHandler(
    lm.ledgerExtendUpdate,
    (request) => doors.handle('extend', request, ExtendRequestSchema, (r) => ledger.extend(r, now())),
    {
      // Refused here, like an acquire: a refused extension leaves no trace in the ledger's history.
      validator: (request) => {
        const refusal = ledger.checkExtend(doors.check('extend', request, ExtendRequestSchema), now());
        if (refusal) {
          throw ApplicationFailure.create({
            type: lm.LEDGER_REFUSED,
            message: refusal.message,
            nonRetryable: true,
            details: [{ reason: refusal.reason, retryable: false }],
          });
        }
      },
      description:
        "Grow a running attempt's slot by what its run granted it more, if the limits allow: " +
        "{ attemptId, extensionId, extension: { tokens, usd }, proof } (its worker's)",
    },
  );
  setHandler(
    lm.ledgerSettleUpdate,
    (request) =>
      doors.handle('settle', request, SettleRequestSchema, (r) => {
        const { abort, ...verdict } = ledger.settle(r, now());
        if (abort.length) cascade(abort);
        return verdict;
      }),
    {
      validator: (request) => void doors.check('settle', request, SettleRequestSchema),
      description: "Charge an attempt and free its slot, once per attempt: { attemptId, usage, proof } (its worker's)",
    },
  );
  setHandler(
    lm.ledgerBatchUpdate,
    (request) => doors.handle('batch', request, BatchRequestSchema, (r) => applyBatch(ledger, r, now(), cascade)),
    {
      // A batch of which every item would be refused (acquires that wait) is refused here: no trace in history.
      validator: (request) => {
        const refusals = batchRefusals(ledger, doors.check('batch', request, BatchRequestSchema), now());
        if (refusals) {
          throw ApplicationFailure.create({
            type: lm.LEDGER_REFUSED,
            message: `ledger ${ledger.id}: every item of the batch refused`,
            nonRetryable: true,
            details: [{ items: refusals }],
          });
        }
      },
      description:
        "Acquires, extensions and settlements of one worker's attempts, answered item by item: " +
        "{ items: [{ call: 'acquire' | 'extend' | 'settle', request }], proof } (its worker's)",
    },
  );
  setHandler(
    lm.ledgerAbortAllUpdate,
    (request) => {
      const verdict = ledger.abortAll(parse(AbortAllRequestSchema, request ?? {}, 'abortAll'), now());
      cascade(verdict.runs);
      return verdict;
    },
    {
      validator: (request) =>
        refuse(ledger.checkOperator(parse(AbortAllRequestSchema, request ?? {}, 'abortAll').actor, 'abortAll')),
      description: 'Abort every registered run now: { reason?, actor? } (actor one of the operators, if set)',
    },
  );
  setHandler(
    lm.ledgerRenewSignal,
    (request) => {
      // A signal carries no proof: anyone could keep a dead attempt's slot, and its scopes, held for ever with it. It
      // is still an event, so the ledger still notes its history's growth (a flood of them hands over, as renewals do).
      const parsed = RenewRequestSchema.safeParse(request);
      if (parsed.success && !patched(LEDGER_RENEW_PROVEN)) ledger.renew(parsed.data.attemptId, now());
      renewed();
    },
    { description: 'Ignored: slots are renewed by renewSlots, with its worker proof (histories before it replay)' },
  );
  setHandler(
    lm.ledgerRenewSlotsUpdate,
    (request) =>
      doors.handle('renewSlots', request, RenewSlotsRequestSchema, (r) => {
        const verdict = { ok: true as const, renewed: ledger.renewAll(r.attemptIds, now()) };
        renewed();
        return verdict;
      }),
    {
      validator: (request) => void doors.check('renewSlots', request, RenewSlotsRequestSchema),
      description:
        "Keep a worker's running attempts' slots one lease longer: { attemptIds, proof } (its worker's), or an " +
        "operator's { attemptIds, actor } (work outside a team run)",
    },
  );
  return doors;
}

function details(status: LedgerStatus): string {
  const { limits, used, inFlight, exhausted, recovery } = status;
  const of = (max: number | undefined) => (max === undefined ? '' : ` of ${max}`);
  return [
    `**ledger ${status.id}**${exhausted ? ` · exhausted (${exhausted.reason})` : ''}`,
    ...(recovery
      ? [
          `recovery required: ${recovery.count} lost attempt(s), usage unknown; no run starts an attempt until ` +
            `\`teamrun ledger resolve ${status.id} --usage '{...}'\` (or \`--release\`)`,
        ]
      : []),
    `in flight: ${inFlight}${of(limits.maxConcurrent)} · tokens: ${used.tokens}${of(limits.maxTokens)} · usd: ` +
      `${used.usd}${of(limits.maxUsd)}`,
    `runs registered: ${status.runs.length}`,
    operatorsLine(status.operators),
  ].join('\n\n');
}

/** Who may force a loosening, resolve and abort every run: the first ten names, and how many more. */
function operatorsLine(operators: string[] | null): string {
  if (!operators) return 'operators: anyone (the ledger was created without `--operators`)';
  const shown = operators
    .slice(0, 10)
    .map((name) => markdownText(name))
    .join(', ');
  return `operators: ${shown}${operators.length > 10 ? ` and ${operators.length - 10} more` : ''}`;
}
