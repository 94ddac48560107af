import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Option, type Command } from 'commander';
import type { AddTasksVerdict } from '../../contract';
import type { AddTasksRequestInput } from '../../plan/requests/add-tasks';
import { askGateway, attemptFromEnv, gatewayFromEnv } from '../attempt-env';
import { CliError, printJson, userFile } from '../../operator/context';
import { actorOption, defaultActor, update, withRun } from './control';

/** `{"tasks":[...]}` or a bare array, from a file, `-` (stdin) or `--tasks` inline. */
function readTasks(file: string | undefined, inline: string | undefined): AddTasksRequestInput['tasks'] {
  if ((file === undefined) === (inline === undefined))
    throw new CliError('give the tasks: a JSON file (or - for stdin), or --tasks JSON');
  const text = inline ?? userFile(() => readFileSync(file === '-' ? 0 : file!, 'utf8'));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new CliError(`the tasks are not JSON: ${(err as Error).message}`);
  }
  const tasks = Array.isArray(value) ? value : (value as { tasks?: unknown } | null)?.tasks;
  if (!Array.isArray(tasks)) throw new CliError('the tasks are {"tasks":[TaskSpec...]} or [TaskSpec...]');
  // Checked by the run, against its graph, as a plan's tasks are.
  return tasks as AddTasksRequestInput['tasks'];
}

interface AddTasksOptions {
  tasks?: string;
  requestId?: string;
  parent?: string;
  actor?: string;
  json?: boolean;
}

/** `add-tasks`: grow a running run, from inside one of its tasks (fenced) or from outside (governed). */
export function registerSpawn(program: Command): void {
  program
    .command('add-tasks [workflowId] [file]')
    .description(
      'add tasks to a running run (the addTasks update). Inside ' +
        'a shell task: `teamrun add-tasks tasks.json` adds them as ' +
        'children of the task, fenced by its token (the task needs ' +
        '"allowSpawn": true). From outside: `teamrun add-tasks RUN tasks.json`, ' +
        'checked against governance.operators. A request id makes it idempotent: the same id again adds nothing',
    )
    .option('--tasks <json>', 'the tasks inline instead of a file: {"tasks":[...]} or [...]')
    .option('--request-id <id>', 'idempotency key (default: <key>#<fencingToken> inside a task, a random id outside)')
    .option(
      '--parent <key>',
      'outside a task: the task to show the new ones under (its depth counts toward budget.maxDepth)',
    )
    .addOption(actorOption())
    .addOption(new Option('--json', 'print the answer as JSON'))
    .action(
      async (first: string | undefined, second: string | undefined, options: AddTasksOptions, command: Command) => {
        const attempt = attemptFromEnv();
        // Inside a task the run is implied: a lone argument is the file.
        const inside = attempt !== null && second === undefined && options.parent === undefined;
        const workflowId = inside ? attempt.workflowId : first;
        if (!workflowId)
          throw new CliError(
            'give the run: teamrun add-tasks RUN tasks.json (inside a task the run comes from $TEAMRUN_WORKFLOW_ID)',
          );
        const tasks = readTasks(inside ? first : second, options.tasks);
        const request = inside
          ? {
              tasks,
              parent: attempt.key,
              fencingToken: attempt.fencingToken,
              requestId: options.requestId ?? `${attempt.key}#${attempt.fencingToken}`,
            }
          : {
              tasks,
              ...(options.parent ? { parent: options.parent } : {}),
              requestId: options.requestId ?? randomUUID(),
              actor: options.actor ?? defaultActor(),
            };
        const gateway = inside ? gatewayFromEnv() : null;
        // Through the worker's gateway the run knows it is the attempt; without one, as a person with the token.
        const answer = gateway
          ? await askGateway<AddTasksVerdict>(gateway, 'addTasks', { tasks, requestId: request.requestId })
          : await withRun(command, workflowId, (handle) => update(handle, 'addTasks', request));
        if (options.json) printJson(answer);
        else
          process.stdout.write(
            `${answer.idempotent ? 'already added by this request' : 'added'}: ${answer.added.join(', ')}\n`,
          );
      },
    );
}
