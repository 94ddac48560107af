import type { TeamPlanInput } from '../src/plan/schema';
import { WORKFLOW_TYPE, adjudicationsQuery } from '../src/workflows/messages';
import { createLedger } from '../src/ledger/client';
import { ledgerHandle } from '../src/ledger/handle';
import { ledgerWorkflowId } from '../src/plan/requests/ledger';
import { tsToMs } from '@temporalio/common/lib/time';
import { spawnWorker, type BenchEnv } from './env';
import { activityPhases, type ActivityPhase } from './history';

/** One round of the ledger bench: the same runs with or without one shared ledger. */
export interface LedgerRound {
  ledger: boolean;
  /** With a ledger: whether the runs took its slots in blocks (`budget.ledgerBlocks`) rather than one each. */
  blocks: boolean;
  attempts: number;
  wallMs: number;
  /** Attempts that finished per second, first run started to last run finished. */
  attemptsPerSecond: number;
  /** RESOURCE_EXHAUSTED answers the server gave (each one a call the client retried), from its own metrics. */
  resourceExhausted: number;
  /** Of those, the ones for UpdateWorkflowExecution (the ledger's updates). */
  resourceExhaustedUpdates: number;
  /** The same by operation and cause (`UpdateWorkflowExecution/ConcurrentLimit`), those that moved in this round. */
  resourceExhaustedBy: Record<string, number>;
  /** Attempts refused for lack of time: the ledger unreachable, or the gateway's verdict wait ran out. */
  timeRefusals: number;
  /** Adjudications of any other kind (none expected: every attempt asks once and fits). */
  otherAdjudications: string[];
  statuses: Record<string, number>;
  /** The ledger's updates (all of its runs, continue-as-new included): how many, and accepted -> completed. */
  ledgerUpdates?: { count: number; byName: Record<string, number>; meanMs: number; p95Ms: number };
  /** Where an attempt's time went: the runs' activities by type, how long each waited and ran. */
  phases: Record<string, ActivityPhase>;
  /** How long after its start each run's first attempt started, mean and longest (ms). */
  firstAttempt: { meanMs: number; maxMs: number };
  /** The runs' `extendReservation` updates (each attempt's ask for more): how many, accepted -> completed. */
  extensions: { count: number; meanMs: number; p95Ms: number };
}

export interface LedgerResult {
  runs: number;
  tasksPerRun: number;
  teammates: number;
  rounds: LedgerRound[];
  /** Median attempts per second with a ledger (in blocks, where measured) over the median without. */
  admissionRatio: number;
  /** The same for runs taking a slot per attempt, where both were measured. */
  slotAdmissionRatio: number | null;
}

/** How a round's runs spend: on a ledger in blocks, on a ledger a slot per attempt, or without a ledger. */
export type LedgerMode = 'blocks' | 'slots' | 'none';

export interface LedgerBenchSettings {
  runs: number;
  tasksPerRun: number;
  teammates: number;
  rounds: number;
  /** The modes each round runs, in order (default: blocks, slots, none). */
  modes?: LedgerMode[];
}

/**
 * What `teamrun reserve --tokens K` does inside a task, without a Node process per attempt: the same request to
 * the same gateway endpoint. 200 when granted.
 */
const reserve = (tokens: number) =>
  `curl -s -o /dev/null -w '%{http_code}' --unix-socket "$TEAMRUN_ATTEMPT_SOCKET" ` +
  `-H "Authorization: Bearer $TEAMRUN_ATTEMPT_SECRET" -d '{"tokens":${tokens}}' http://gateway/reserve`;

/**
 * Section (12): `runs` team runs of `tasksPerRun` shell tasks each, all started at once on one worker; each attempt
 * takes a slot (acquire), asks for more once (`/reserve`: the run's grant, then the ledger's extension), reports its
 * usage and settles. With a ledger every run names the same one; without, the same runs with their own budgets only.
 * Rounds alternate (ledger, none) so the machine's load falls on both alike.
 */
export async function measureLedger(
  env: BenchEnv,
  settings: LedgerBenchSettings,
  log: (line: string) => void,
): Promise<LedgerResult> {
  const rounds: LedgerRound[] = [];
  const modes = settings.modes ?? ['blocks', 'slots', 'none'];
  const named = { blocks: 'ledger, blocks', slots: 'ledger, slots', none: 'no ledger' } as const;
  for (let round = 0; round < settings.rounds; round++) {
    for (const mode of modes) {
      const result = await ledgerRound(env, settings, mode, `${round}`);
      rounds.push(result);
      log(
        `  ledger round ${round + 1} ${named[mode].padEnd(14)}: ${result.attempts} attempts in ` +
          `${result.wallMs} ms (${result.attemptsPerSecond.toFixed(1)}/s), ResourceExhausted ${result.resourceExhausted} ` +
          `(updates ${result.resourceExhaustedUpdates}${byLine(result.resourceExhaustedBy)}), ` +
          `time refusals ${result.timeRefusals}, ` +
          `other ${result.otherAdjudications.length}, ${JSON.stringify(result.statuses)}` +
          (result.ledgerUpdates ? `; ledger updates ${JSON.stringify(result.ledgerUpdates)}` : '') +
          `; first attempt after ${result.firstAttempt.meanMs} ms (longest ${result.firstAttempt.maxMs})` +
          `; extensions ${JSON.stringify(result.extensions)}` +
          `; activities ${phasesLine(result.phases)}`,
      );
    }
  }
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  };
  const modeOf = (r: LedgerRound): LedgerMode => (!r.ledger ? 'none' : r.blocks ? 'blocks' : 'slots');
  const rate = (mode: LedgerMode) => median(rounds.filter((r) => modeOf(r) === mode).map((r) => r.attemptsPerSecond));
  const has = (mode: LedgerMode) => modes.includes(mode);
  return {
    runs: settings.runs,
    tasksPerRun: settings.tasksPerRun,
    teammates: settings.teammates,
    rounds,
    admissionRatio: rate(has('blocks') ? 'blocks' : 'slots') / rate('none'),
    slotAdmissionRatio: has('blocks') && has('slots') ? rate('slots') / rate('none') : null,
  };
}

async function ledgerRound(
  env: BenchEnv,
  settings: LedgerBenchSettings,
  mode: LedgerMode,
  tag: string,
): Promise<LedgerRound> {
  const withLedger = mode !== 'none';
  const taskQueue = `bench-ledger-${tag}-${mode[0]}-${Date.now().toString(36)}`;
  const slots = settings.runs * settings.teammates;
  const worker = await spawnWorker(env, taskQueue, `ledger-worker-${tag}`, env.workerConfig(slots));
  const ledgerId = `bench-${taskQueue}`;
  try {
    if (withLedger) await createLedger(env.client, ledgerId, { maxTokens: 1_000_000_000 }, { taskQueue });
    const command = `[ "$(${reserve(7)})" = 200 ] && echo '::teamrun-usage::{"outputTokens":7}'`;
    const plan = (r: number): TeamPlanInput => ({
      name: `bench-ledger-${r}`,
      teammates: settings.teammates,
      // The bench measures admission, not leases: a loaded machine must not lose one.
      lease: { ttlMs: 60_000 },
      awaitAdjudication: false,
      budget: {
        maxTokens: 1_000_000_000,
        ...(withLedger ? { ledger: ledgerId } : {}),
        ...(mode === 'blocks' ? { ledgerBlocks: true } : {}),
      },
      tasks: Array.from({ length: settings.tasksPerRun }, (_, i) => ({
        key: `t${i}`,
        executor: { kind: 'shell', command },
        // No grant up front: each attempt's 7 tokens are the extension it asks its run (and its ledger) for. A
        // fair share of the run's 1e9 would hold 1e8 tokens per slot, and a ledger of 1e9 then runs 10 attempts at
        // once across all runs: the bench measured that limit, not admission, until this was set.
        estimate: { tokens: 0, usd: 0 },
      })),
    });
    const before = await exhausted(env.metricsUrl);
    const started = Date.now();
    const handles = await Promise.all(
      Array.from({ length: settings.runs }, (_, r) =>
        env.client.workflow.start(WORKFLOW_TYPE, { taskQueue, workflowId: `${taskQueue}-run-${r}`, args: [plan(r)] }),
      ),
    );
    const results = await Promise.all(handles.map((h) => h.result()));
    const wallMs = Date.now() - started;
    const after = await exhausted(env.metricsUrl);
    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    let timeRefusals = 0;
    const otherAdjudications: string[] = [];
    for (const h of handles) {
      for (const record of await h.query(adjudicationsQuery)) {
        const why = `${record.code} ${record.reason ?? ''}`;
        if (/ledger-unreachable|GATEWAY_FAILED|timed out/i.test(why)) timeRefusals += 1;
        else otherAdjudications.push(why.slice(0, 300));
      }
    }
    const attempts = settings.runs * settings.tasksPerRun;
    const firsts: number[] = [];
    const phases = await activityPhases(handles, firsts);
    const firstAttempt = {
      meanMs: Math.round(firsts.reduce((sum, ms) => sum + ms, 0) / Math.max(1, firsts.length)),
      maxMs: Math.max(0, ...firsts),
    };
    const ledgerUpdates = withLedger ? await updatesOf(env, [ledgerWorkflowId(ledgerId)]) : undefined;
    const extensions = await updatesOf(
      env,
      handles.map((h) => h.workflowId),
      'extendReservation',
    );
    return {
      ...(ledgerUpdates ? { ledgerUpdates } : {}),
      ledger: withLedger,
      blocks: mode === 'blocks',
      attempts,
      wallMs,
      attemptsPerSecond: attempts / (wallMs / 1000),
      resourceExhausted: after.all - before.all,
      resourceExhaustedUpdates: after.updates - before.updates,
      resourceExhaustedBy: Object.fromEntries(
        Object.entries(after.by)
          .map(([what, n]) => [what, n - (before.by[what] ?? 0)] as const)
          .filter(([, n]) => n > 0),
      ),
      timeRefusals,
      otherAdjudications,
      statuses,
      phases,
      firstAttempt,
      extensions: { count: extensions.count, meanMs: extensions.meanMs, p95Ms: extensions.p95Ms },
    };
  } finally {
    if (withLedger)
      await ledgerHandle(env.client, ledgerId)
        .terminate('bench done')
        .catch(() => undefined);
    await worker.stop();
  }
}

/** Every update the ledger's workflow took, over all its runs: by name, and how long each took from accepted. */
async function updatesOf(
  env: BenchEnv,
  workflowIds: string[],
  only?: string,
): Promise<NonNullable<LedgerRound['ledgerUpdates']>> {
  const byName: Record<string, number> = {};
  const took: number[] = [];
  for (const workflowId of workflowIds)
    for await (const execution of env.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
      const history = await env.client.workflow.getHandle(workflowId, execution.runId).fetchHistory();
      const accepted = new Map<string, number>();
      for (const e of history.events ?? []) {
        const at = tsToMs(e.eventTime);
        const a = e.workflowExecutionUpdateAcceptedEventAttributes;
        const name = a?.acceptedRequest?.input?.name ?? '?';
        if (a && (only === undefined || name === only)) {
          byName[name] = (byName[name] ?? 0) + 1;
          accepted.set(a.protocolInstanceId ?? '', at);
        }
        const c = e.workflowExecutionUpdateCompletedEventAttributes;
        const start = c ? accepted.get(c.meta?.updateId ?? '') : undefined;
        if (start !== undefined) took.push(at - start);
      }
    }
  took.sort((x, y) => x - y);
  const count = Object.values(byName).reduce((sum, n) => sum + n, 0);
  const meanMs = took.length ? Math.round(took.reduce((s, x) => s + x, 0) / took.length) : 0;
  return { count, byName, meanMs, p95Ms: took[Math.floor(took.length * 0.95)] ?? 0 };
}

/** RESOURCE_EXHAUSTED answers of the server's frontend so far, in all and for UpdateWorkflowExecution. */
async function exhausted(metricsUrl: string): Promise<{ all: number; updates: number; by: Record<string, number> }> {
  const text = await (await fetch(metricsUrl)).text();
  let all = 0;
  let updates = 0;
  const by: Record<string, number> = {};
  for (const line of text.split('\n')) {
    if (!/^service_errors_resource_exhausted(_total)?\{/.test(line)) continue;
    if (line.includes('service_name="') && !line.includes('service_name="frontend"')) continue;
    const n = Number(line.slice(line.lastIndexOf(' ') + 1));
    all += n;
    if (line.includes('operation="UpdateWorkflowExecution"')) updates += n;
    const label = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(line)?.[1] ?? '?';
    const what = `${label('operation')}/${label('resource_exhausted_cause')}`;
    by[what] = (by[what] ?? 0) + n;
  }
  return { all, updates, by };
}

/** `; UpdateWorkflowExecution/ConcurrentLimit 2`, or nothing. */
function byLine(by: Record<string, number>): string {
  const parts = Object.entries(by).map(([what, n]) => `${what} ${n}`);
  return parts.length ? `; ${parts.join(', ')}` : '';
}

/** `runTask 100 (wait 132 ms, run 1230 ms)` for each activity type, tries shown when more than one. */
function phasesLine(phases: Record<string, ActivityPhase>): string {
  return Object.entries(phases)
    .map(
      ([type, p]) =>
        `${type} ${p.count} (wait ${p.waitMs} ms, run ${p.runMs} ms${p.tries > 1 ? `, ${p.tries} tries` : ''})`,
    )
    .join(', ');
}

const runsOf = (r: LedgerRound) => (!r.ledger ? 'no ledger' : r.blocks ? 'one ledger, blocks' : 'one ledger, slots');

export function formatLedger(result: LedgerResult): string {
  const rows = result.rounds.map(
    (r) =>
      `| ${runsOf(r)} | ${r.attempts} | ${(r.wallMs / 1000).toFixed(1)} | ` +
      `${r.attemptsPerSecond.toFixed(1)} | ${r.resourceExhausted} (${r.resourceExhaustedUpdates}) | ${r.timeRefusals} | ` +
      `${r.otherAdjudications.length} |`,
  );
  return [
    `(12) shared ledger: ${result.runs} runs x ${result.tasksPerRun} attempts (${result.teammates} teammates each), ` +
      'each attempt acquire + one extension + settle',
    '',
    '| runs | attempts | wall s | attempts/s | ResourceExhausted (updates) | time refusals | other adjudications |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    `admission with a ledger / without (medians): ${result.admissionRatio.toFixed(2)}` +
      (result.slotAdmissionRatio === null ? '' : ` (a slot per attempt: ${result.slotAdmissionRatio.toFixed(2)})`),
    '',
    "where the time went (the runs' activities by type: mean wait from scheduled, mean run of the last try):",
    ...result.rounds.map(
      (r, i) =>
        `- ${runsOf(r)} (row ${i + 1}): first attempt ${r.firstAttempt.meanMs} ms after its run's start ` +
        `(longest ${r.firstAttempt.maxMs}); extensions ${r.extensions.count}, accepted to answered ` +
        `${r.extensions.meanMs} ms mean, ${r.extensions.p95Ms} p95; ${phasesLine(r.phases)}`,
    ),
  ].join('\n');
}
