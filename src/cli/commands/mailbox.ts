import { Option, type Command } from 'commander';
import type { MailMessage, ReadInboxAnswer, SendMessageVerdict } from '../../contract';
import { askGateway, attemptFromEnv, gatewayFromEnv } from '../attempt-env';
import { CliError, printJson } from '../../operator/context';
import { oneLine, table } from '../../format';
import { intOption } from '../../operator/options';
import { actorOption, defaultActor, update, withRun } from './control';

/** A body given on the command line: JSON when it parses, else the text itself. */
function bodyOf(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messagesTable(messages: MailMessage[]): string {
  return table(
    ['ID', 'AT', 'FROM', 'TO', 'SUBJECT', 'BODY'],
    messages.map((m) => [
      String(m.id),
      new Date(m.at).toISOString(),
      m.from,
      m.to,
      m.subject ?? '-',
      oneLine(JSON.stringify(m.body), 60),
    ]),
  );
}

interface SendOptions {
  to: string;
  subject?: string;
  from?: string;
  actor?: string;
  json?: boolean;
}

/** `inbox`, `send`, `messages`, `members`: the teammates' mailbox, from inside a task and from outside. */
export function registerMailbox(program: Command): void {
  program
    .command('inbox')
    .description(
      'inside a shell task: read the messages waiting for it (its run, ' +
        'key and fencing token come from $TEAMRUN_*); prints them as JSON',
    )
    .option('--peek', 'show them without marking them read')
    .action(async (options: { peek?: boolean }, command: Command) => {
      const attempt = attemptFromEnv();
      if (!attempt)
        throw new CliError(
          'teamrun inbox runs inside a task: TEAMRUN_WORKFLOW_ID, ' +
            'TEAMRUN_TASK_KEY and TEAMRUN_FENCING_TOKEN must be set',
        );
      const peek = options.peek === true;
      const gateway = gatewayFromEnv();
      // Through the worker's gateway the run knows it is the attempt; without one, as a person with the token.
      const { messages } = gateway
        ? await askGateway<ReadInboxAnswer>(gateway, 'readInbox', { peek })
        : await withRun(command, attempt.workflowId, (handle) =>
            update(handle, 'readInbox', { key: attempt.key, fencingToken: attempt.fencingToken, peek }),
          );
      // One line, so a shell can use it as is (`::teamrun-output::{"got":$(teamrun inbox)}`).
      process.stdout.write(`${JSON.stringify(messages)}\n`);
    });

  program
    .command('send [workflowId] [body]')
    .description(
      'send a mailbox message. Inside a shell task: `teamrun ' +
        'send --to reviewer \'{"fix":"..."}\'` sends as the task. ' +
        'From outside: `teamrun send RUN --to KEY BODY` sends as ' +
        'coordinator (or --from), checked against governance.operators',
    )
    .requiredOption('--to <recipient>', 'a task key, teammate-<n>, coordinator, or * (every task not yet settled)')
    .option('--subject <text>', 'a subject line')
    .option('--from <name>', 'outside a task: who it is from (default: coordinator)')
    .addOption(actorOption())
    .addOption(new Option('--json', 'print the answer as JSON'))
    .action(async (first: string | undefined, second: string | undefined, options: SendOptions, command: Command) => {
      const attempt = attemptFromEnv();
      // Inside a task the run is implied: a lone argument is the body.
      const inside = attempt !== null && second === undefined;
      const workflowId = inside ? attempt.workflowId : first;
      const text = inside ? first : second;
      if (!workflowId)
        throw new CliError(
          'give the run: teamrun send RUN --to KEY BODY (inside a task the run comes from $TEAMRUN_WORKFLOW_ID)',
        );
      if (text === undefined) throw new CliError('give the message body (JSON, or plain text)');
      const gateway = inside ? gatewayFromEnv() : null;
      const request = inside
        ? {
            from: attempt.key,
            fencingToken: attempt.fencingToken,
            to: options.to,
            subject: options.subject,
            body: bodyOf(text),
          }
        : {
            from: options.from ?? 'coordinator',
            actor: options.actor ?? defaultActor(),
            to: options.to,
            subject: options.subject,
            body: bodyOf(text),
          };
      const answer = gateway
        ? await askGateway<SendMessageVerdict>(gateway, 'sendMessage', {
            to: options.to,
            subject: options.subject,
            body: bodyOf(text),
          })
        : await withRun(command, workflowId, (handle) => update(handle, 'sendMessage', request));
      if (options.json) printJson(answer);
      else process.stdout.write(`sent message ${answer.id} to ${options.to}\n`);
    });

  program
    .command('messages <workflowId>')
    .description('the mailbox messages a run holds, oldest first')
    .option('--to <recipient>', 'only those sent to this recipient')
    .option('--after <id>', 'only those after this id', intOption)
    .option('--limit <n>', 'at most this many (at most 100)', intOption)
    .option('--json', 'print JSON')
    .action(
      async (
        workflowId: string,
        options: { to?: string; after?: number; limit?: number; json?: boolean },
        command: Command,
      ) => {
        const page = await withRun(command, workflowId, (handle) =>
          handle.messages({ to: options.to, after: options.after, limit: options.limit }),
        );
        if (options.json) printJson(page);
        else process.stdout.write(page.messages.length ? `${messagesTable(page.messages)}\n` : 'no messages\n');
      },
    );

  program
    .command('members <workflowId>')
    .description('one row per teammate slot: idle, running or shutdown, its task, and what it has done')
    .option('--json', 'print JSON')
    .action(async (workflowId: string, options: { json?: boolean }, command: Command) => {
      const members = await withRun(command, workflowId, (handle) => handle.members());
      if (options.json) printJson(members);
      else {
        const rows = members.map((m) => [
          m.holder,
          m.state,
          m.currentTask ?? '-',
          String(m.completed),
          String(m.failed),
          new Date(m.since).toISOString(),
          oneLine(m.lastError ?? '', 50),
        ]);
        process.stdout.write(`${table(['HOLDER', 'STATE', 'TASK', 'DONE', 'FAILED', 'SINCE', 'LAST ERROR'], rows)}\n`);
      }
    });
}
