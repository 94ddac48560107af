import type { Client } from '@temporalio/client';
import type { Command } from 'commander';
import { startTeamRun, teamRunHandle } from '../../client';
import { askGateway, gatewayFromEnv } from '../attempt-env';
import type { TeamrunConfig } from '../../config/config';
import { configFrom, printJson, withClient } from '../../operator/context';
import { startFailure } from '../../operator/start-errors';
import { KIND_OPTION_HELP, planChecks, readPlan } from '../../operator/plan-file';
import { renderResult } from '../render';
import { waitForRun } from '../wait';
import { runUrl } from '../web-ui';
import { ATTR, inSpan } from '../../telemetry/spans';
import { ledgerStatusGlance } from '../../ledger/client';
import type { TeamPlan } from '../../plan/schema';
import { upfrontOf } from '../../plan/budget-fit';
import { Budget } from '../../team/budget';
import { fairShareNote } from '../../operator/fair-share';

/** What the attempt gateway answers a run it started and linked (src/activities/gateway/start-run.ts). */
interface Linked {
  runId: string;
  taskQueue: string;
  startedBy: { run: string; task: string; fencingToken: number };
}

interface StartOptions {
  id?: string;
  wait?: boolean;
  json?: boolean;
  kind?: string[];
}

export function registerStart(program: Command): void {
  program
    .command('start <plan>')
    .description(
      'check a plan file, start it as a team run, and print its workflow id (and Web UI link on a local server); ' +
        "inside a task, through its worker, linked to the task's attempt (its end aborts the run)",
    )
    .option('--id <workflowId>', 'workflow id of the run (default: <plan name>-<timestamp>)')
    .option('--wait', 'show progress until the run ends, print its summary; exit 0 only if it succeeded')
    .option('--json', 'print JSON: the workflow id, or with --wait the run result')
    .option('--kind <kind...>', KIND_OPTION_HELP)
    .action(async (file: string, options: StartOptions, command: Command) => {
      // Exactly what `teamrun validate` checks: nothing starts that validate would refuse.
      const { input, plan } = readPlan(file, planChecks(configFrom(command), options.kind));
      // About the plan, so before anything starts and whatever the output (stderr, beside --json's stdout too).
      const fairShares = fairShareNote(plan);
      if (fairShares) process.stderr.write(`note: ${fairShares}\n`);
      // Inside a task the attempt's worker starts it, linked to the attempt: its end aborts the run (docs/teams.md).
      const gateway = gatewayFromEnv();
      const linked = (access: NonNullable<typeof gateway>) =>
        askGateway<Linked>(access, 'startRun', {
          // On its worker's own task queue (the task's environment need not know it).
          plan: input,
          ...(options.id ? { runId: options.id } : {}),
        });
      if (gateway && !options.wait) {
        const { runId, taskQueue, startedBy } = await linked(gateway);
        if (options.json) printJson({ workflowId: runId, startedBy });
        else
          process.stdout.write(
            `started ${runId} on task queue "${taskQueue}", linked to task ${startedBy.task} of ${startedBy.run}\n`,
          );
        return;
      }
      await withClient(command, async (client, config) => {
        const handle = gateway
          ? teamRunHandle(client, (await linked(gateway)).runId)
          : await start(client, config, input, options.id);
        const link = runUrl(config, handle.workflowId);
        if (options.json && !options.wait) printJson({ workflowId: handle.workflowId, webUi: link });
        else {
          process.stdout.write(`started ${handle.workflowId} on task queue "${config.connection.taskQueue}"\n`);
          if (link) process.stdout.write(`web ui: ${link}\n`);
        }
        // On stderr, with --json too: stdout keeps the JSON alone.
        await warnWithoutWorker(client, config);
        await warnLedgerShares(client, plan);
        if (!options.wait) return;
        const result = await waitForRun(handle, {}, { leaveOnCtrlC: true });
        if (options.json) printJson({ workflowId: handle.workflowId, ...result });
        else process.stdout.write(`\n${renderResult(handle.workflowId, result)}\n`);
        if (result.status !== 'succeeded') process.exitCode = 1;
      });
    });
}

async function start(
  client: Client,
  config: TeamrunConfig,
  plan: Parameters<typeof startTeamRun>[1],
  workflowId?: string,
) {
  // With tracing on, this span opens the run's trace: the start, the run and every attempt join it.
  const named = workflowId ? { [ATTR.runId]: workflowId } : {};
  return inSpan('teamrun start', { 'teamrun.plan': plan.name, ...named }, async (span) => {
    try {
      const handle = await startTeamRun(client, plan, { taskQueue: config.connection.taskQueue, workflowId });
      span.setAttribute(ATTR.runId, handle.workflowId);
      return handle;
    } catch (err) {
      throw await startFailure(err, client, plan);
    }
  });
}

/** A run on a queue nobody polls waits silently; say so rather than look stuck. */
async function warnWithoutWorker(client: Client, config: TeamrunConfig): Promise<void> {
  const { namespace, taskQueue } = config.connection;
  const described = await client.workflowService
    // An unspecified queue type means the workflow queue, the one every teamrun worker polls.
    .describeTaskQueue({ namespace, taskQueue: { name: taskQueue } })
    .catch(() => null);
  if (described && (described.pollers ?? []).length === 0) {
    process.stderr.write(
      `note: no worker polls task queue "${taskQueue}" yet; the run ` +
        `starts when one does (\`teamrun worker\` or \`teamrun dev\`)\n`,
    );
  }
}

/**
 * A ledger's slot holds its attempt's grant, and a task without an estimate is granted a fair share of its run's
 * `maxTokens`: a ledger whose own `maxTokens` holds fewer such shares than the run's teammates runs fewer of them at
 * once, across all its runs, and nothing else says why (bench section 12 ran 10 of 40 so for four stops).
 */
async function warnLedgerShares(client: Client, plan: TeamPlan): Promise<void> {
  const { ledger, maxTokens } = plan.budget;
  // What else a task reserves (an estimate, a team's carve, an agent's first call) is its own: only fair shares here.
  const unestimated = plan.tasks.filter((t) => upfrontOf(t)?.amount.tokens === undefined).length;
  if (!ledger || maxTokens === undefined || !unestimated) return;
  // A warning only: a ledger that does not answer within a few seconds (no worker on its queue) is not waited for.
  const limit = (await ledgerStatusGlance(client, ledger).catch(() => null))?.limits.maxTokens;
  // The run's own rule (team/budget.ts): what its first attempt without an estimate reserves of a fresh budget.
  const share = Budget.create({ maxTokens }).sizeOf(undefined, plan.teammates).tokens;
  const atOnce = limit === undefined || share === 0 ? Infinity : Math.floor(limit / share);
  if (atOnce >= Math.min(plan.teammates, unestimated)) return;
  const how = atOnce
    ? `at most ${atOnce} run at once across the ledger's runs`
    : 'none can start (the ledger refuses a grant it can never hold)';
  process.stderr.write(
    `note: ledger ${ledger} holds maxTokens ${limit}; each of this run's ${unestimated} task(s) without an estimate ` +
      `holds about ${share} tokens (a fair share of the run's maxTokens ${maxTokens} over ${plan.teammates} ` +
      `teammates) in its ledger slot, so ${how}. Give them an ` +
      '`estimate` (tokens: 0 for a task that asks with `teamrun reserve`), or the ledger more (docs/budgets.md)\n',
  );
}
