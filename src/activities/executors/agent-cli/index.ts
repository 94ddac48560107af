import type { AgentCliConfig } from '../../../config/agent-clis';
import { allowedFlags, checkCliArgs, flagLike } from '../../../plan/agent-cli-args';
import { AgentCliSpecSchema, type AgentCliSpec } from '../../../plan/schema';
import type { MailMessage } from '../../../team/mailbox';
import { defineExecutor } from '../define';
import { containProcesses } from '../shell';
import { gatewayView, sandboxPrefix, type GatewayView } from '../sandbox';
import { resolveCwd, shellEnvironment, writeInputs } from '../shell-env';
import { ExecutorError, type ExecutorContext, type ExecutorResult } from '../types';
import { hasPrice, unpricedModelMessage } from '../../pricing';
import { record, type CliAdapter } from './adapter';
import { claudeCode } from './claude-code';
import { codex } from './codex';
import { gemini } from './gemini';
import { CliProgress } from './progress';
import { SessionStore } from './sessions';
import { runCli, type CliExit } from './stream';
import { AttemptWorktree } from './worktree';

/** Each CLI's adapter, by the name a plan gives it; `reportsCost`: its result carries the run's total cost. */
const ADAPTERS: Record<AgentCliSpec['cli'], { adapter: CliAdapter; reportsCost: boolean }> = {
  'claude-code': { adapter: claudeCode, reportsCost: true },
  codex: { adapter: codex, reportsCost: false },
  gemini: { adapter: gemini, reportsCost: false },
};

/** The prompt with its inbox, at most: it must fit one argument of a command line (Linux: 128 KiB). */
const MAX_PROMPT_BYTES = 120 * 1024;

/**
 * `agent-cli`: a coding-agent CLI (Claude Code, Codex, Gemini CLI) run headless in its streaming
 * JSON mode, contained as a shell task is and with its environment (so `teamrun send` and
 * `teamrun add-tasks` work inside it). Its stream is read as it comes: each turn's usage is
 * charged to the run at once, turns and tool calls become `agent:turn` / `agent:tool` events, and
 * its final result the task's output `{ content, sessionId?, worktree?, branch?, commit?, ... }`
 * (docs/agent-clis.md). With `worktree`, what the agent changed is committed to a branch of the
 * attempt's own before its directory is removed, whatever the end.
 */
export const agentCliExecutor = defineExecutor(AgentCliSpecSchema, async (spec, ctx) => {
  // Under maxUsd, a plan model with no price is refused before the CLI spends anything on it.
  if (ctx.budget?.pricesRequired && spec.model !== undefined && !hasPrice(ctx.config.prices, spec.model))
    throw new ExecutorError(unpricedModelMessage(spec.model), { nonRetryable: true, type: 'TeamUnpricedModel' });
  const cli = configOf(spec, ctx);
  const { adapter, reportsCost } = ADAPTERS[spec.cli];
  const prompt = withInbox(spec.prompt, ctx.inbox);
  const base = resolveCwd(spec.cwd, ctx.config.worker.shell) ?? process.cwd();
  const worktree = spec.worktree ? await AttemptWorktree.open(base, ctx, spec.worktree === 'continue') : undefined;
  const cwd = worktree?.dir ?? base;
  const inputs = writeInputs(ctx, ctx.config.worker.shell.inlineInputsMaxBytes);
  try {
    const sessions = new SessionStore(ctx, spec.cli);
    const saved = sessions.load();
    // A session id comes from the CLI's own stream: one a parser could read as a flag is not passed on.
    const resumable = saved && !flagLike(saved.sessionId) && (adapter.resumeAnywhere || saved.cwd === cwd);
    const resume = resumable ? saved.sessionId : undefined;
    const args = checkCliArgs(spec.args ?? [], cli.allowArgs, 'executor.args', allowArgsOf(spec)).argv;
    const invocation = adapter.invocation({ prompt, model: spec.model, resume, args });
    const env = shellEnvironment(undefined, ctx, { ...inputs.env, ...cliEnv(spec.cli, cli, ctx) });
    const progress = new CliProgress(ctx, spec.cli, reportsCost, (id) => sessions.save(id, cwd), spec.model);
    const view = gatewayView(ctx.attemptGateway, [inputs.dir]);
    const exit = await stream(spec, ctx, { cli, adapter, invocation, cwd, env, progress, view });
    progress.endWithoutCost();
    await worktree?.keep(ctx);
    const output = {
      content: progress.content,
      ...(progress.sessionId ? { sessionId: progress.sessionId } : {}),
      ...progress.tests.output(),
      ...(worktree ? await worktree.output(cli.keepWorktrees) : {}),
    };
    const result: ExecutorResult = {
      output,
      ...(progress.usage.empty ? {} : { usage: progress.usage.records }),
      logs: { ...exit.logs, stderr: exit.logs.stderr + notes(progress, exit) },
    };
    const failure = failureOf(spec, progress, exit);
    if (failure) throw new ExecutorError(failure.message, { ...failure, ...result });
    sessions.remove();
    return result;
  } finally {
    inputs.remove();
    await worktree?.close(ctx, cli.keepWorktrees);
  }
});

function allowArgsOf(spec: AgentCliSpec): string {
  return `worker.agentClis.${spec.cli}.allowArgs`;
}

/** The worker's set-up of the plan's CLI, with the plan's arguments checked against it (as pairs). */
function configOf(spec: AgentCliSpec, ctx: ExecutorContext): AgentCliConfig {
  const configured = ctx.config.worker.agentClis;
  const cli = Object.hasOwn(configured, spec.cli) ? configured[spec.cli] : undefined;
  if (!cli) {
    const names = Object.keys(configured);
    throw new ExecutorError(
      `executor.cli: "${spec.cli}" is not set up on this worker (worker.agentClis in teamrun.yaml ` +
        `lists ${names.length ? names.join(', ') : 'none'}); its operator names the binary there, never the plan`,
      { nonRetryable: true, type: 'TeamAgentCliNotConfigured' },
    );
  }
  // A config built in code may still hold allowArgs as written: read it as a config file's would be.
  const allowed = allowedFlags(cli.allowArgs);
  const { problems } =
    'problem' in allowed
      ? { problems: [{ path: allowArgsOf(spec), message: allowed.problem }] }
      : checkCliArgs(spec.args ?? [], allowed.flags, 'executor.args', allowArgsOf(spec));
  if (problems.length || 'problem' in allowed) {
    throw new ExecutorError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), {
      nonRetryable: true,
      type: 'TeamAgentCliArgRefused',
    });
  }
  return { ...cli, allowArgs: allowed.flags };
}

/** The CLI's own variables from the worker's set-up: literals, or the worker's variables by name. */
function cliEnv(name: string, cli: AgentCliConfig, ctx: ExecutorContext): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(cli.env)) {
    if (typeof value === 'string') {
      env[key] = value;
      continue;
    }
    const resolved = ctx.env[value.fromWorkerEnv];
    if (resolved === undefined) {
      throw new ExecutorError(
        `worker.agentClis.${name}.env.${key}: fromWorkerEnv "${value.fromWorkerEnv}" ` +
          `is not set in this worker's environment`,
        { nonRetryable: true, type: 'TeamAgentCliEnv' },
      );
    }
    env[key] = resolved;
  }
  return env;
}

/** A message's body as the agent reads it: text as it is, any other JSON as JSON. */
function bodyText(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

/** The task's prompt, then the mailbox messages waiting for it when the attempt started. */
export function withInbox(prompt: string, inbox: MailMessage[]): string {
  const text = inbox.length
    ? `${prompt}\n\nMessages for this task from your team (oldest first):\n` +
      inbox.map((m) => `- from ${m.from}${m.subject ? `, "${m.subject}"` : ''}: ${bodyText(m.body)}`).join('\n')
    : prompt;
  if (Buffer.byteLength(text) > MAX_PROMPT_BYTES) {
    throw new ExecutorError(
      `executor.prompt: the prompt with its ${inbox.length} inbox message(s) is ` +
        `${Buffer.byteLength(text)} bytes, over ${MAX_PROMPT_BYTES}; put long material in files and name them`,
      { nonRetryable: true, type: 'TeamAgentCliPromptTooLarge' },
    );
  }
  return text;
}

async function stream(
  spec: AgentCliSpec,
  ctx: ExecutorContext,
  how: {
    cli: AgentCliConfig;
    adapter: CliAdapter;
    invocation: { args: string[]; stdin?: string };
    cwd: string;
    env: Record<string, string>;
    progress: CliProgress;
    view?: GatewayView;
  },
): Promise<CliExit> {
  const shell = ctx.config.worker.shell;
  const sandbox = sandboxPrefix(ctx.config.worker.sandbox, how.cwd, how.view);
  const processes = containProcesses(ctx, sandbox !== null);
  const { progress } = how;
  const parser = how.adapter.parser();
  let lines = 0;
  const running = runCli({
    argv: [how.cli.command, ...how.invocation.args],
    stdin: how.invocation.stdin,
    cwd: how.cwd,
    env: how.env,
    processes,
    sandbox,
    killGraceMs: shell.killGraceMs,
    maxLineBytes: shell.maxLineBytes,
    logTailBytes: shell.logTailBytes,
    timeoutMs: spec.timeoutMs,
    signal: ctx.signal,
    redactor: ctx.redactor,
    async onLine(line) {
      if (!line.trim()) return;
      lines++;
      let event: Record<string, unknown>;
      try {
        event = record(JSON.parse(line));
      } catch {
        ctx.moved?.(`${spec.cli} stream line ${lines} (not JSON)`);
        progress.notJson++;
        return;
      }
      const type = typeof event.type === 'string' ? ` "${event.type.slice(0, 64)}"` : '';
      ctx.moved?.(`${spec.cli} stream event ${lines}${type}`);
      const events = parser.parse(event);
      if (events === null) progress.unknownType(event.type);
      for (const e of events ?? []) await progress.apply(e);
      ctx.progress({ cli: spec.cli, turns: progress.turns, toolCalls: progress.toolCalls });
      if (progress.refused) running.stop('the run refused more budget');
    },
  });
  const exit = await running.done;
  for (const e of parser.end()) await progress.apply(e);
  return exit;
}

/** Why the attempt failed, if it did: stopped, the CLI's own error, or no result. */
function failureOf(
  spec: AgentCliSpec,
  progress: CliProgress,
  exit: CliExit,
): { message: string; type: string; nonRetryable?: boolean } | undefined {
  const session = progress.sessionId ? ` (session ${progress.sessionId})` : '';
  if (progress.refused) {
    return {
      message: `${spec.cli} stopped at turn ${progress.turns}: the run refused more budget${session}`,
      type: 'TEAM_TASK_BUDGET_EXCEEDED',
      nonRetryable: true,
    };
  }
  if (exit.stoppedBy) {
    const type = exit.stoppedBy.startsWith('timed out') ? 'TeamExecutorTimeout' : 'TeamAgentCliStopped';
    return { message: `${spec.cli} stopped (${exit.stoppedBy})${session}`, type };
  }
  if (exit.spawnError)
    return { message: `could not start ${spec.cli}: ${exit.spawnError}`, type: 'TeamAgentCliFailed' };
  const how = exit.signal ? `killed by ${exit.signal}` : `exit code ${exit.code}`;
  const result = progress.result;
  if (!result) {
    const tail = exit.logs.stderr.trim().slice(-500);
    return {
      message: `${spec.cli} ended (${how}) without a result${tail ? `: ${tail}` : ''}`,
      type: 'TeamAgentCliFailed',
    };
  }
  if (!result.ok)
    return { message: `${spec.cli}: ${result.error ?? 'error'}${session}`.slice(0, 2_000), type: 'TeamAgentCliFailed' };
  if (exit.code !== 0)
    return { message: `${spec.cli} reported a result but ended with ${how}`, type: 'TeamAgentCliFailed' };
  return undefined;
}

/** What the worker noticed in the stream, appended to the attempt's stderr log. */
function notes(progress: CliProgress, exit: CliExit): string {
  const lines: string[] = [];
  if (progress.unknown)
    lines.push(`${progress.unknown} event(s) of unknown type ignored (${progress.unknownTypes.join(', ')})`);
  if (progress.notJson) lines.push(`${progress.notJson} stdout line(s) not JSON, ignored`);
  if (exit.longLines) lines.push(`${exit.longLines} stdout line(s) over worker.shell.maxLineBytes, skipped`);
  return lines.map((l) => `[teamrun] ${l}\n`).join('');
}
