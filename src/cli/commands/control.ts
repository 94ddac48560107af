import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { Option, type Command } from 'commander';
import { endedRunText, teamRunHandle, teamRunResult, type TeamRunControls, type TeamRunHandle } from '../../client';
import type {
  AbortRequest,
  ActiveClaim,
  AdjudicateRequest,
  AdjudicationRecord,
  Decision,
  InterruptVerdict,
} from '../../contract';
import { TEAM_RUN_MESSAGES, type TeamRunMessages } from '../../workflows/messages';
import { CliError, printJson, withClient } from '../../operator/context';
import { oneLine, table } from '../../format';
import { intOption } from '../../operator/options';

/** Who a control message says it comes from: `--actor`, else $TEAMRUN_ACTOR, else the login name. */
export function defaultActor(): string {
  return process.env.TEAMRUN_ACTOR || os.userInfo().username;
}

/** `--actor`, checked against `checkedAgainst` (a run's `governance.operators` unless said otherwise). */
export const actorOption = (checkedAgainst = 'governance.operators') =>
  new Option(
    '--actor <name>',
    `who is asking, checked against ${checkedAgainst} (default: $TEAMRUN_ACTOR, else your login name)`,
  );

/** Runs `fn` with a client and a handle on the run, closing the connection after. */
export async function withRun<T>(
  command: Command,
  workflowId: string,
  fn: (handle: TeamRunHandle, client: Client) => Promise<T>,
): Promise<T> {
  return withClient(command, async (client) => {
    try {
      return await fn(teamRunHandle(client, workflowId), client);
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw new CliError(await notOpen(client, workflowId));
      throw err;
    }
  });
}

/** Why a run is not open: it ended (with what status, and when), or there is no such run. */
async function notOpen(client: Client, workflowId: string): Promise<string> {
  const ended = await endedRunText(client, workflowId);
  if (ended) return `${ended} (\`teamrun report ${workflowId}\` shows what happened)`;
  return `no open run with id "${workflowId}" in namespace ${client.options.namespace}`;
}

/** An update its validator (or handler) refused: the stable code and what was wrong. */
function rejectionOf(err: unknown): { code: string; message: string } | null {
  if (err instanceof WorkflowUpdateFailedError && err.cause instanceof ApplicationFailure) {
    return { code: err.cause.type ?? 'rejected', message: err.cause.message };
  }
  return null;
}

/** The handle's methods that send an update. */
type UpdateMethod = {
  [K in keyof TeamRunMessages]: TeamRunMessages[K] extends { readonly omitted: unknown } ? K : never;
}[keyof TeamRunMessages];

/** Sends the update `method` through the handle; a refusal is a CliError naming the message and its code. */
export async function update<K extends UpdateMethod>(
  handle: TeamRunHandle,
  method: K,
  ...args: Parameters<TeamRunControls[K]>
): Promise<Awaited<ReturnType<TeamRunControls[K]>>> {
  const send = handle[method] as (...request: unknown[]) => ReturnType<TeamRunControls[K]>;
  try {
    return await send(...args);
  } catch (err) {
    const what = TEAM_RUN_MESSAGES[method].definition.name;
    const rejection = rejectionOf(err);
    if (rejection) {
      const said = rejection.message.startsWith(`${rejection.code}: `)
        ? rejection.message
        : `${rejection.code}: ${rejection.message}`;
      throw new CliError(`${what} rejected: ${said}`);
    }
    throw err;
  }
}

const time = (ms: number) => new Date(ms).toISOString();

function claimsTable(claims: ActiveClaim[]): string {
  return table(
    ['KEY', 'TOKEN', 'ATTEMPT', 'HOLDER', 'STARTED', 'INTERRUPTED'],
    claims.map((c) => [
      c.key,
      String(c.fencingToken),
      String(c.attempt),
      c.holder,
      time(c.startedAt),
      c.interrupted
        ? `yes (${c.interruption?.actor ?? 'unknown'}` +
          `${c.interruption?.requestId ? `, ${c.interruption.requestId}` : ''})`
        : 'no',
    ]),
  );
}

function recordsTable(records: AdjudicationRecord[]): string {
  return table(
    ['KEY', 'CODE', 'TOKEN', 'ACTOR', 'REQUESTED', 'EVIDENCE', 'DECISION', 'REASON'],
    records.map((r) => [
      r.key,
      r.code,
      String(r.fencingToken),
      r.actor ?? '-',
      time(r.requestedAt),
      r.evidenceDigest ?? '-',
      r.decision ? `${r.decision.decision} (${r.decision.actor ?? '-'})` : 'pending',
      oneLine(r.reason ?? '', 50),
    ]),
  );
}

const WHY_NOT: Record<string, string> = {
  not_active: 'the task has no live attempt (it has not started, or it has already settled)',
  stale_attempt: 'the attempt changed since its token was read; look again with `teamrun claims`',
  already_interrupted: 'another request already interrupted this attempt',
};

function explainInterrupt(key: string, verdict: InterruptVerdict): string {
  if (!verdict.ok) return `not interrupted: ${verdict.reason}: ${WHY_NOT[verdict.reason] ?? verdict.message ?? ''}`;
  const i = verdict.interruption as {
    fencingToken: number;
    holder: string;
    requestId: string | null;
    actor: string | null;
  };
  const how = verdict.idempotent ? 'already interrupted by this request' : 'interrupted';
  return [
    `${how}: ${key} (token ${i.fencingToken}, ${i.holder})`,
    `  request ${i.requestId ?? '-'} by ${i.actor ?? '-'}`,
    `  the attempt is being cancelled; it settles in adjudication (see \`teamrun adjudications\`)`,
  ].join('\n');
}

interface InterruptOptions {
  reason?: string;
  requestId?: string;
  actor?: string;
  fencingToken?: number;
  json?: boolean;
}

interface AbortOptions {
  reason: string;
  requestId?: string;
  code?: string;
  actor?: string;
  adjudication: boolean;
  json?: boolean;
}

interface AdjudicateOptions {
  retry?: boolean;
  accept?: boolean;
  reject?: boolean;
  result?: string;
  decisionId?: string;
  actor?: string;
  reason?: string;
  evidenceDigest?: string;
  json?: boolean;
}

function decisionOf(options: AdjudicateOptions): Decision {
  const chosen = (['retry', 'accept', 'reject'] as const).filter((d) => options[d]);
  if (chosen.length !== 1) throw new CliError('give exactly one of --retry, --accept or --reject');
  return chosen[0];
}

function parseResult(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new CliError(`--result is not JSON: ${(err as Error).message}`);
  }
}

/** `claims`, `interrupt`, `abort`, `adjudications`, `adjudicate`: taking over and stopping a run. */
export function registerControl(program: Command): void {
  program
    .command('claims <workflowId>')
    .description('attempts that hold a lease now, with the fencing token an interruption must name')
    .option('--json', 'print JSON')
    .action(async (workflowId: string, options: { json?: boolean }, command: Command) => {
      const claims = await withRun(command, workflowId, (handle) => handle.activeClaims());
      if (options.json) printJson(claims);
      else process.stdout.write(claims.length ? `${claimsTable(claims)}\n` : 'no attempt holds a lease\n');
    });

  program
    .command('interrupt <workflowId> <key>')
    .description('take over a running task: cancel the attempt you see in `teamrun claims`; it settles in adjudication')
    .option('--reason <text>', 'why, for the adjudication record')
    .option('--request-id <id>', 'id of this request; repeating it is idempotent (default: a fresh uuid)')
    .addOption(actorOption())
    .option(
      '--fencing-token <n>',
      'interrupt only the attempt with this token (default: the current one, read first)',
      intOption,
    )
    .option('--json', 'print the verdict as JSON')
    .action(async (workflowId: string, key: string, options: InterruptOptions, command: Command) => {
      const verdict = await withRun(command, workflowId, async (handle) => {
        // The token is read first, so this can only ever stop the attempt that was seen.
        const fencingToken =
          options.fencingToken ?? (await handle.activeClaims()).find((c) => c.key === key)?.fencingToken;
        const request = {
          key,
          fencingToken,
          requestId: options.requestId ?? randomUUID(),
          actor: options.actor ?? defaultActor(),
          reason: options.reason,
        };
        return update(handle, 'interrupt', request);
      });
      if (options.json) printJson(verdict);
      else process.stdout.write(`${explainInterrupt(key, verdict)}\n`);
      if (!verdict.ok) process.exitCode = 1;
    });

  program
    .command('abort <workflowId>')
    .description(
      'stop the whole run: nothing new starts, running attempts are cancelled into adjudication, the rest skipped',
    )
    .requiredOption('--reason <text>', 'why, for the record and every adjudication it causes')
    .option('--request-id <id>', 'id of this request (default: a fresh uuid)')
    .option(
      '--code <CODE>',
      'code on the adjudications it causes, [A-Z0-9_]{1,64} (default TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED)',
    )
    .addOption(actorOption())
    .option('--no-adjudication', 'fail the cancelled attempts instead of sending them to adjudication')
    .option('--json', 'print the verdict as JSON')
    .action(async (workflowId: string, options: AbortOptions, command: Command) => {
      const request: AbortRequest = {
        ...(options.code ? { code: options.code } : {}),
        reason: options.reason,
        requestId: options.requestId ?? randomUUID(),
        actor: options.actor ?? defaultActor(),
        requireAdjudication: options.adjudication,
      };
      const verdict = await withRun(command, workflowId, (handle) => update(handle, 'abort', request));
      if (options.json) printJson(verdict);
      else if (!verdict.ok)
        process.stdout.write(`not aborted: ${verdict.reason}${verdict.message ? `: ${verdict.message}` : ''}\n`);
      else {
        const settle = options.adjudication ? 'settle in adjudication' : 'fail';
        const how = verdict.idempotent ? 'already aborted' : 'aborted';
        process.stdout.write(
          `${how}: ${verdict.activeClaims} running attempt(s) cancelled; ` +
            `they ${settle}, and tasks not started are skipped\n`,
        );
      }
      if (!verdict.ok) process.exitCode = 1;
    });

  program
    .command('adjudications <workflowId>')
    .description('adjudication records of a run: pending (decision "pending") and decided')
    .option('--json', 'print the full records as JSON')
    .action(async (workflowId: string, options: { json?: boolean }, command: Command) => {
      const records = await withRun(command, workflowId, async (handle) => {
        const { status } = await handle.describe();
        return status.name === 'RUNNING' ? handle.adjudications() : (await teamRunResult(handle)).adjudications;
      });
      if (options.json) {
        printJson(records);
        return;
      }
      const pending = records.filter((r) => r.decision === null).length;
      process.stdout.write(records.length ? `${recordsTable(records)}\n${pending} pending\n` : 'no adjudications\n');
    });

  program
    .command('adjudicate <workflowId> <key>')
    .description(
      'decide a task in adjudication: --retry (run it again), ' +
        '--accept (mark it succeeded) or --reject (mark it failed)',
    )
    .option('--retry', 'run the task again, with a new fencing token')
    .option('--accept', 'mark it succeeded (with --result as its output, else what the attempt reported)')
    .option('--reject', 'mark it failed; its dependents are skipped')
    .option('--result <json>', 'with --accept: the output to record')
    .option('--decision-id <id>', 'id of this decision; repeating it returns the first outcome (default: a fresh uuid)')
    .addOption(actorOption())
    .option('--reason <text>', 'why, for the record')
    .option('--evidence-digest <digest>', 'refuse unless the record holds this evidence digest')
    .option('--json', 'print the outcome as JSON')
    .action(async (workflowId: string, key: string, options: AdjudicateOptions, command: Command) => {
      const request: AdjudicateRequest = {
        key,
        decision: decisionOf(options),
        decisionId: options.decisionId ?? randomUUID(),
        actor: options.actor ?? defaultActor(),
        reason: options.reason,
        evidenceDigest: options.evidenceDigest,
        result: parseResult(options.result),
      };
      const outcome = await withRun(command, workflowId, (handle) => update(handle, 'adjudicate', request));
      if (options.json) printJson(outcome);
      else {
        const again = outcome.idempotent ? ' (decided earlier with this decision id)' : '';
        process.stdout.write(
          `${key}: ${request.decision} -> ${outcome.task.status}${again}\n  ` +
            `decision ${request.decisionId} by ${request.actor}\n`,
        );
      }
    });

  program
    .command('reopen <workflowId> <key>')
    .description(
      'send a succeeded, failed or skipped task back to adjudication (a side effect turned out wrong); its ' +
        'dependents that already ran are listed, not re-run; decide it then with adjudicate',
    )
    .requiredOption('--reason <text>', 'why it is reopened, for the record')
    .option('--request-id <id>', 'id of this request; repeating it returns the first outcome (default: a fresh uuid)')
    .addOption(actorOption())
    .option('--json', 'print the outcome as JSON')
    .action(async (workflowId: string, key: string, options: ReopenOptions, command: Command) => {
      const request = {
        key,
        reason: options.reason,
        requestId: options.requestId ?? randomUUID(),
        actor: options.actor ?? defaultActor(),
      };
      const outcome = await withClient(command, async (client) => {
        try {
          return await update(teamRunHandle(client, workflowId), 'reopenTask', request);
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          const ended = await notOpen(client, workflowId);
          throw new CliError(`${ended}; a closed run cannot be reopened: start a new run with the task instead`);
        }
      });
      if (options.json) printJson(outcome);
      else {
        const again = outcome.idempotent ? ' (reopened earlier with this request id)' : '';
        const ran = outcome.dependents.length ? outcome.dependents.join(', ') : 'none';
        process.stdout.write(
          `${key}: reopened -> ${outcome.task.status}${again}\n  dependents that already ran: ${ran}\n  ` +
            `decide it with: teamrun adjudicate ${workflowId} ${key} --retry | --accept | --reject\n`,
        );
      }
    });
}

interface ReopenOptions {
  reason: string;
  requestId?: string;
  actor?: string;
  json?: boolean;
}
