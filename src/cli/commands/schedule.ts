import { Option, type Command } from 'commander';
import { applySync, declaredSchedules, planSync } from '../../client/schedule-sync';
import {
  OVERLAP_POLICIES,
  createTeamSchedule,
  deleteTeamSchedule,
  describeSpec,
  describeTeamSchedule,
  listTeamSchedules,
  overlapName,
  recordedAction,
  parseEvery,
  pauseTeamSchedule,
  scheduleOwner,
  scheduledTeam,
  triggerTeamSchedule,
  unpauseTeamSchedule,
  type OverlapName,
} from '../../client/schedules';
import { TeamPlanSchema, type TeamPlanInput } from '../../plan/schema';
import { KIND_OPTION_HELP, planChecks, readPlan } from '../../operator/plan-file';
import { CliError, configFrom, printJson, withClient } from '../../operator/context';
import { table } from '../../format';
import { fairShareNote } from '../../operator/fair-share';

const overlapOption = () =>
  new Option('--overlap <policy>', 'what happens when a run is due while the last one still runs').choices(
    Object.keys(OVERLAP_POLICIES),
  );

export function registerSchedule(program: Command): void {
  const schedule = program
    .command('schedule')
    .description(
      'run a team plan on a schedule (Temporal Schedules): create, ' +
        'list, describe, trigger, pause, unpause, delete, sync',
    );

  schedule
    .command('create <id>')
    .description('create a schedule that starts a team run of <plan> at every cron time or interval')
    .requiredOption('--plan <file>', 'team plan (YAML or JSON), validated before the schedule is created')
    .option('--cron <expr>', 'cron expression, e.g. "0 3 * * *"')
    .option('--every <duration>', 'interval, e.g. 15m, 1h, 1d')
    .addOption(overlapOption().default('skip'))
    .option('--paused', 'create it paused', false)
    .option('--timezone <tz>', 'IANA time zone for cron times (default UTC)')
    .option('--kind <kind...>', KIND_OPTION_HELP)
    .action(
      async (
        id: string,
        options: {
          plan: string;
          cron?: string;
          every?: string;
          overlap: OverlapName;
          paused: boolean;
          timezone?: string;
          kind?: string[];
        },
        command: Command,
      ) => {
        if ((options.cron === undefined) === (options.every === undefined))
          throw new CliError('give exactly one of --cron or --every');
        const config = configFrom(command);
        // The checks `teamrun validate` and `start` make: a plan they refuse would fail at every run.
        const { input, plan } = readPlan(options.plan, planChecks(config, options.kind));
        // Every run the schedule starts holds them so.
        const fairShares = fairShareNote(plan);
        if (fairShares) process.stderr.write(`note: ${fairShares}\n`);
        const everyMs = options.every === undefined ? undefined : parseEvery(options.every);
        await withClient(command, async (client) => {
          await createTeamSchedule(client, {
            id,
            plan: input,
            ...(options.cron !== undefined ? { cron: options.cron } : { everyMs }),
            overlap: options.overlap,
            paused: options.paused,
            ...(options.timezone ? { timezone: options.timezone } : {}),
            taskQueue: config.connection.taskQueue,
          });
          const description = await describeTeamSchedule(client, id);
          const next = description.info.nextActionTimes[0];
          process.stdout.write(
            `created schedule ${id}: team ${plan.name}, ${recordedAction(description).when}, ` +
              `overlap ${options.overlap}` +
              `${options.paused ? ', paused' : ''}, task queue ${config.connection.taskQueue}\n` +
              (next && !options.paused ? `next run: ${next.toISOString()}\n` : ''),
          );
        });
      },
    );

  schedule
    .command('list')
    .description('list the schedules that start team runs')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      await withClient(command, async (client) => {
        const rows = await listTeamSchedules(client);
        if (options.json) return printJson(rows);
        if (!rows.length) return void process.stdout.write('no team schedules\n');
        const cells = rows.map((r) => [
          r.id,
          r.team ?? '-',
          r.spec,
          r.paused ? 'paused' : 'active',
          r.owner ? `teamrun ${r.owner.source}` : 'other',
          r.nextRun?.toISOString() ?? '-',
          r.lastRun ? `${r.lastRun.workflowId}` : '-',
        ]);
        process.stdout.write(
          `${table(['SCHEDULE', 'TEAM', 'WHEN', 'STATE', 'CREATED BY', 'NEXT RUN', 'LAST RUN'], cells)}\n`,
        );
      });
    });

  schedule
    .command('describe <id>')
    .description('show a schedule: timing, policy, state, recent and running team runs')
    .option('--json', 'print JSON')
    .action(async (id: string, options: { json?: boolean }, command: Command) => {
      await withClient(command, async (client) => {
        const d = await describeTeamSchedule(client, id);
        const action = d.action as { workflowType?: string; taskQueue?: string; workflowId?: string; args?: unknown[] };
        const plan = action.args?.[0] as TeamPlanInput | undefined;
        const owner = scheduleOwner(d.memo);
        const summary = {
          id,
          team: scheduledTeam(d),
          when: recordedAction(d).when ?? describeSpec(d.spec),
          overlap: overlapName(d.policies.overlap),
          paused: d.state.paused,
          note: d.state.note ?? null,
          createdBy: owner ? `teamrun ${owner.source}` : null,
          taskQueue: action.taskQueue ?? null,
          workflowType: action.workflowType ?? null,
          tasks: plan?.tasks.length ?? null,
          actionsTaken: d.info.numActionsTaken,
          skippedForOverlap: d.info.numActionsSkippedOverlap,
          nextRuns: d.state.paused ? [] : d.info.nextActionTimes.slice(0, 3).map((t) => t.toISOString()),
          running: d.info.runningActions.map((a) => a.workflow.workflowId),
          recent: d.info.recentActions.map((a) => ({
            workflowId: a.action.workflow.workflowId,
            takenAt: a.takenAt.toISOString(),
          })),
        };
        if (options.json) return printJson(summary);
        const lines = [
          `schedule ${id}`,
          `  team:            ${summary.team ?? '-'} (${summary.tasks ?? '?'} ` +
            `tasks) on task queue ${summary.taskQueue ?? '-'}`,
          `  when:            ${summary.when}`,
          `  overlap:         ${summary.overlap}`,
          `  state:           ${summary.paused ? 'paused' : 'active'}${summary.note ? ` (${summary.note})` : ''}`,
          `  created by:      ${summary.createdBy ?? 'not teamrun'}`,
          `  runs started:    ${summary.actionsTaken}, skipped for overlap: ${summary.skippedForOverlap}`,
          `  next runs:       ${summary.nextRuns.join(', ') || (summary.paused ? '- (paused)' : '-')}`,
          `  running now:     ${summary.running.join(', ') || '-'}`,
          `  recent runs:`,
          ...(summary.recent.length ? summary.recent.map((r) => `    ${r.takenAt}  ${r.workflowId}`) : ['    -']),
        ];
        process.stdout.write(`${lines.join('\n')}\n`);
      });
    });

  schedule
    .command('trigger <id>')
    .description("start a run now, under the schedule's overlap policy (skip: not while one is running)")
    .addOption(overlapOption())
    .action(async (id: string, options: { overlap?: OverlapName }, command: Command) => {
      await withClient(command, async (client) => {
        const policy = await triggerTeamSchedule(client, id, options.overlap);
        process.stdout.write(`triggered schedule ${id} (overlap ${overlapName(policy)})\n`);
      });
    });

  schedule
    .command('pause <id>')
    .description('stop starting runs until unpaused')
    .option('--reason <text>', 'note shown on the schedule')
    .action(async (id: string, options: { reason?: string }, command: Command) => {
      await withClient(command, async (client) => {
        await pauseTeamSchedule(client, id, options.reason);
        process.stdout.write(`paused schedule ${id}\n`);
      });
    });

  schedule
    .command('unpause <id>')
    .description('start runs again at the next due time')
    .option('--reason <text>', 'note shown on the schedule')
    .action(async (id: string, options: { reason?: string }, command: Command) => {
      await withClient(command, async (client) => {
        await unpauseTeamSchedule(client, id, options.reason);
        process.stdout.write(`unpaused schedule ${id}\n`);
      });
    });

  schedule
    .command('delete <id>')
    .description('delete a schedule (runs it already started keep running)')
    .action(async (id: string, _options: unknown, command: Command) => {
      await withClient(command, async (client) => {
        await deleteTeamSchedule(client, id);
        process.stdout.write(`deleted schedule ${id}\n`);
      });
    });

  schedule
    .command('sync')
    .description(
      'apply `schedules:` from teamrun.yaml: create missing, ' +
        'update changed, --prune delete undeclared ones sync created',
    )
    .option(
      '--prune',
      'delete schedules created by `schedule sync` for this task queue that are no longer declared',
      false,
    )
    .option('--dry-run', 'print what would change, change nothing', false)
    .action(async (options: { prune: boolean; dryRun: boolean }, command: Command) => {
      const config = configFrom(command);
      // The checks `start` and `schedule create` make: a plan they refuse would fail or stop at every run.
      const declared = declaredSchedules(config, planChecks(config));
      await withClient(command, async (client) => {
        const steps = await planSync(client, declared, {
          prune: options.prune,
          taskQueue: config.connection.taskQueue,
        });
        if (!options.dryRun) await applySync(client, declared, steps);
        const verb = (op: string) =>
          options.dryRun ? `would ${op}` : ({ create: 'created', update: 'updated', delete: 'deleted' }[op] ?? op);
        for (const step of steps) process.stdout.write(`${verb(step.op).padEnd(12)} ${step.id}: ${step.detail}\n`);
        // A plan created or changed: every run the schedule starts holds its fair shares so.
        for (const step of steps.filter((s) => s.op === 'create' || s.op === 'update')) {
          const parsed = TeamPlanSchema.safeParse(declared.find((d) => d.id === step.id)?.plan);
          const fairShares = parsed.success ? fairShareNote(parsed.data) : null;
          if (fairShares) process.stderr.write(`note: schedule ${step.id}: ${fairShares}\n`);
        }
        const count = (op: string) => steps.filter((s) => s.op === op).length;
        process.stdout.write(
          `${options.dryRun ? 'dry run: ' : ''}${count('create')} ` +
            `created, ${count('update')} updated, ${count('delete')} deleted, ` +
            `${count('unchanged')} unchanged${count('conflict') ? `, ${count('conflict')} conflict(s)` : ''}\n`,
        );
        if (count('conflict'))
          throw new CliError('some declared schedules exist but were not created by teamrun (see above)');
      });
    });
}
