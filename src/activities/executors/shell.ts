import { spawn } from 'node:child_process';
import { ShellSpecSchema, UsageSchema, type ShellSpec } from '../../plan/schema';
import { ADD_TASKS_LIMITS } from '../../plan/requests/add-tasks';
import { checkExecutorEnv } from '../../plan/env-rules';
import { MAILBOX_LIMITS } from '../../team/mailbox';
import { MAX_ATTEMPT_LINKS, type AttemptLink, type AttemptLogs } from '../interface';
import { UsageRecords } from '../pricing';
import { defineExecutor } from './define';
import { StreamCapture } from './output-stream';
import { ContainmentError, containAttempt, type AttemptProcesses } from './process-tree';
import { gatewayView, sandboxedCommand, sandboxPrefix } from './sandbox';
import { checkCommand, environmentMarker, resolveCwd, shellEnvironment, writeInputs } from './shell-env';
import { ExecutorError, type ExecutorContext, type ExecutorResult } from './types';

const USAGE_PREFIX = '::teamrun-usage::';
const OUTPUT_PREFIX = '::teamrun-output::';
const ERROR_PREFIX = '::teamrun-error::';
const LINK_PREFIX = '::teamrun-link::';
const MESSAGE_PREFIX = '::teamrun-message::';
const TASKS_PREFIX = '::teamrun-tasks::';
const DIRECTIVE_PREFIXES = [USAGE_PREFIX, OUTPUT_PREFIX, ERROR_PREFIX, LINK_PREFIX, MESSAGE_PREFIX, TASKS_PREFIX];
const MAX_LINK_URL = 2_048;
const MAX_LINK_LABEL = 200;
/** Why the shell was stopped when a usage line could not be read. */
const INVALID_USAGE_STOP = 'stopped at a usage line that does not fit the contract';
/** Worker notes (malformed or dropped lines) kept for the stderr log, at most. */
const MAX_NOTES = 10;

/**
 * Runs `command` under `/bin/sh -c`, contained (a cgroup of its own where the worker may create
 * one, else its process group and the descendants a /proc scan finds), with an allowlisted
 * environment. Output is read as bounded byte streams. Nothing the attempt starts outlives it:
 * when the shell exits, when the attempt is cancelled or times out, everything it started is
 * ended (TERM, then KILL after `killGraceMs`).
 */
export const shellExecutor = defineExecutor(ShellSpecSchema, async (spec, ctx) => {
  const shell = ctx.config.worker.shell;
  checkCommand(spec.command, shell.allowCommands);
  if (shell.allowCommands) refuseProgramEnv(spec, shell.planEnv);
  const cwd = resolveCwd(spec.cwd, shell);
  const inputs = writeInputs(ctx, shell.inlineInputsMaxBytes);
  try {
    const env = shellEnvironment(spec.env, ctx, inputs.env);
    const view = gatewayView(ctx.attemptGateway, [inputs.dir]);
    const sandbox = sandboxPrefix(ctx.config.worker.sandbox, cwd ?? process.cwd(), view);
    const processes = containProcesses(ctx, sandbox !== null);
    return await runContained(spec, ctx, { env, cwd, processes, command: sandboxedCommand(spec.command, sandbox) });
  } finally {
    inputs.remove();
  }
});

/**
 * A plan's env must not undo allowCommands (PATH, LD_PRELOAD, NODE_OPTIONS...). The CLI refuses
 * such a plan at validation; a plan started any other way (a client, the temporal CLI, an added
 * task) is checked here, before anything runs. The workflow cannot: it never sees this config.
 */
function refuseProgramEnv(spec: ShellSpec, allowed: ReadonlyArray<string> | undefined): void {
  const problems = checkExecutorEnv({ kind: 'shell', env: spec.env }, 'executor', allowed);
  if (problems.length === 0) return;
  throw new ExecutorError(problems.map((p) => `${p.path}: ${p.message}`).join('; '), {
    nonRetryable: true,
    type: 'TeamShellEnvRefused',
  });
}

function runContained(
  spec: ShellSpec,
  ctx: ExecutorContext,
  how: { env: Record<string, string>; cwd: string | undefined; processes: AttemptProcesses; command: string },
): Promise<ExecutorResult> {
  const { killGraceMs, outputTailBytes, logTailBytes, maxLineBytes } = ctx.config.worker.shell;
  const { processes } = how;
  const { redactor } = ctx;
  const keepBytes = Math.max(outputTailBytes, logTailBytes) + redactor.margin;
  const usage = new UsageRecords();
  const links: AttemptLink[] = [];
  const messages: unknown[] = [];
  const tasks: unknown[] = [];
  const notes: string[] = [];
  let output: unknown;
  let reported: { message?: string; nonRetryable?: boolean } | undefined;
  // The first directive line that could not be taken: it fails the attempt (a link only gets a note).
  let malformed: { prefix: string; line: string; reason: string } | undefined;
  const note = (text: string) => {
    if (notes.length < MAX_NOTES) notes.push(`[teamrun] ${text}`);
  };
  // Set once the child runs: what stops it (a usage line that cannot be read, a refused extension).
  let stopNow: (why: string) => void = () => undefined;
  const onDirective = (line: string): Promise<boolean> | undefined => {
    const prefix = DIRECTIVE_PREFIXES.find((p) => line.startsWith(p));
    if (prefix === undefined) return undefined;
    try {
      const value: unknown = JSON.parse(line.slice(prefix.length));
      if (prefix === USAGE_PREFIX) {
        const record = UsageSchema.parse(value);
        usage.add(record);
        // Counted at once: past a refused extension the attempt stops at this line, not at its end.
        return ctx.budget?.report(record);
      } else if (prefix === OUTPUT_PREFIX) output = value;
      else if (prefix === ERROR_PREFIX) reported = value as typeof reported;
      else if (prefix === LINK_PREFIX) addLink(links, value);
      else if (prefix === MESSAGE_PREFIX) addMessage(messages, value);
      else addTasks(tasks, value);
    } catch (err) {
      const shown = redactor.text(line).slice(0, 200);
      const reason = redactor.text((err as Error).message).slice(0, 300);
      // A dropped link loses nothing the run relies on; a dropped output, usage, error, message
      // or task line would let the attempt succeed on something other than what it reported.
      if (prefix === LINK_PREFIX) note(`ignored malformed line "${shown}": ${reason}`);
      else malformed ??= { prefix, line: shown, reason };
      // Usage that cannot be read cannot be counted: nothing more is spent on it.
      if (prefix === USAGE_PREFIX) {
        stopNow(INVALID_USAGE_STOP);
        return Promise.resolve(false);
      }
    }
    return undefined;
  };
  let pauseStdout: (paused: boolean) => void = () => undefined;
  const stdout = new StreamCapture({ keepBytes, maxLineBytes, onDirective, pause: (paused) => pauseStdout(paused) });
  const stderr = new StreamCapture({ keepBytes, maxLineBytes });

  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn('/bin/sh', processes.argv(how.command), {
        cwd: how.cwd,
        env: how.env,
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
    } catch (err) {
      processes.dispose();
      reject(spawnFailure(err as NodeJS.ErrnoException));
      return;
    }
    if (child.pid !== undefined) processes.started(child.pid);
    let stoppedBy: string | null = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | null = null;
    let spawnError: NodeJS.ErrnoException | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;
    let streamsOpen = 2;
    // Set once the shell's exit was seen and what it left behind was looked for.
    let exitChecked = false;
    let finished = false;

    // A stream stays open while anything holds its pipe; once all the attempt's processes are
    // gone that is something that escaped containment, and the attempt does not wait for it.
    const drainSoon = (ms: number) => {
      clearTimeout(drainTimer);
      drainTimer = setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
      }, ms);
    };
    // TERM everything the attempt started, KILL after the grace period.
    const terminate = () => {
      if (killTimer) return;
      void processes.signal('SIGTERM').catch(() => undefined);
      killTimer = setTimeout(() => {
        void processes.signal('SIGKILL').catch(() => undefined);
        drainSoon(1_000);
      }, killGraceMs);
    };
    const stop = (why: string) => {
      if (stoppedBy || finished) return;
      stoppedBy = why;
      terminate();
    };
    stopNow = stop;
    pauseStdout = (paused) => (paused ? child.stdout?.pause() : child.stdout?.resume());
    const onAbort = () => stop('cancelled');
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const timeout = spec.timeoutMs
      ? setTimeout(() => stop(`timed out after ${spec.timeoutMs} ms`), spec.timeoutMs)
      : undefined;
    if (ctx.signal.aborted) onAbort();

    // Any output is a step for the stall watch (a line, a usage line, a progress bar's redraw).
    child.stdout!.on('data', (chunk: Buffer) => (ctx.moved?.('output on stdout'), stdout.push(chunk)));
    child.stderr!.on('data', (chunk: Buffer) => (ctx.moved?.('output on stderr'), stderr.push(chunk)));
    const streamClosed = () => {
      streamsOpen--;
      finish();
    };
    child.stdout!.once('close', streamClosed);
    child.stderr!.once('close', streamClosed);
    child.on('error', (err: NodeJS.ErrnoException) => {
      spawnError = err;
      exit ??= { code: null, signal: null };
      exitChecked = true;
      drainSoon(0);
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // The shell is done: whatever it left behind (a background child, a daemon) ends with it.
      // void: an event listener cannot await, and alive()'s failure is caught as "something is left".
      void processes
        .alive()
        .catch(() => true)
        .then((left) => {
          if (left) terminate();
          else drainSoon(500);
          exitChecked = true;
          finish();
        });
    });

    function finish() {
      if (finished || !exitChecked || streamsOpen > 0) return;
      finished = true;
      clearTimeout(timeout);
      clearTimeout(killTimer);
      clearTimeout(drainTimer);
      ctx.signal.removeEventListener('abort', onAbort);
      // Whatever closed its output but still runs (or ignored SIGTERM) is killed now.
      processes
        .alive()
        .then((left) => (left ? processes.signal('SIGKILL') : undefined))
        .catch(() => undefined)
        .finally(() => {
          processes.dispose();
          // The last usage line may still be answered: the attempt settles once it is.
          void Promise.all([stdout.end(), stderr.end()]).then(settle);
        });
    }

    function settle() {
      for (const [name, capture] of [
        ['stdout', stdout],
        ['stderr', stderr],
      ] as const) {
        if (capture.longLines)
          note(
            `${name}: ${capture.longLines} line(s) over ${maxLineBytes} bytes ` +
              `(worker.shell.maxLineBytes); ${capture.total} bytes in all, the last ${logTailBytes} kept`,
          );
      }
      const logs: AttemptLogs = {
        stdout: stdout.tail(logTailBytes, redactor),
        stderr: withNotes(
          stderr.tail(logTailBytes, redactor),
          notes.map((n) => redactor.text(n)),
          logTailBytes,
        ),
        stdoutBytes: stdout.total,
        stderrBytes: stderr.total,
      };
      const evidence = {
        usage: usage.empty ? undefined : usage.records,
        output: redactor.deep(output),
        logs,
        links: links.length ? redactor.deep(links) : undefined,
        messages: messages.length ? redactor.deep(messages) : undefined,
        tasks: tasks.length ? tasks : undefined,
      };
      if (spawnError) {
        reject(spawnFailure(spawnError, evidence));
        return;
      }
      const { code, signal } = exit!;
      const dropped = stdout.droppedDirectiveLines;
      if (malformed && (!stoppedBy || stoppedBy === INVALID_USAGE_STOP)) {
        reject(malformedLine(malformed, evidence));
        return;
      }
      if (code === 0 && !reported && !stoppedBy && dropped === 0) {
        resolve(evidence);
        return;
      }
      const how = stoppedBy ?? (code === 0 ? 'exit code 0' : signal ? `killed by ${signal}` : `exit code ${code}`);
      let detail: string;
      let nonRetryable = reported?.nonRetryable === true;
      if (dropped > 0 && !stoppedBy) {
        detail =
          `${dropped} directive line(s) (${stdout.droppedDirectives.join(', ')}) ` +
          `over ${maxLineBytes} bytes were dropped, not parsed (worker.shell.maxLineBytes); ` +
          `print less on one line, or store the data elsewhere and print a reference`;
        nonRetryable = true;
      } else {
        const message = reported?.message === undefined ? undefined : redactor.text(String(reported.message));
        const tail = stderr.tail(outputTailBytes, redactor).trim() || stdout.tail(outputTailBytes, redactor).trim();
        detail = (message ?? tail).slice(-1_000);
      }
      reject(
        new ExecutorError(`shell command failed (${how})${detail ? `: ${detail}` : ''}`, {
          nonRetryable,
          type: stoppedBy?.startsWith('timed out') ? 'TeamExecutorTimeout' : 'TeamShellFailed',
          ...evidence,
        }),
      );
    }
  });
}

function addLink(links: AttemptLink[], value: unknown): void {
  if (links.length >= MAX_ATTEMPT_LINKS)
    throw new Error(`more than ${MAX_ATTEMPT_LINKS} links; later ones are ignored`);
  const { url, label } = (value ?? {}) as { url?: unknown; label?: unknown };
  if (typeof url !== 'string' || url.length > MAX_LINK_URL || !/^https?:\/\/\S+$/i.test(url)) {
    throw new Error(`a link needs "url": an http(s) URL of at most ${MAX_LINK_URL} characters`);
  }
  if (label !== undefined && typeof label !== 'string') throw new Error('a link\'s "label" must be a string');
  links.push({ url, label: (label ?? url).slice(0, MAX_LINK_LABEL) });
}

/**
 * A `::teamrun-message::{"to":...,"subject":...,"body":...}`
 * line: checked by the run when the attempt settles its task.
 */
function addMessage(messages: unknown[], value: unknown): void {
  if (messages.length >= MAILBOX_LIMITS.perAttempt)
    throw new Error(`more than ${MAILBOX_LIMITS.perAttempt} messages in one attempt`);
  if (typeof value !== 'object' || value === null || typeof (value as { to?: unknown }).to !== 'string') {
    throw new Error('a message needs "to" (a task key, teammate-<n>, coordinator or *) and "body"');
  }
  messages.push(value);
}

/**
 * A `::teamrun-tasks::{"tasks":[...]}` line: its tasks join the attempt's, which the run checks
 * and adds when the attempt settles the task (each line is bounded by worker.shell.maxLineBytes,
 * all of them by the attempt's spawn bound in run-task).
 */
function addTasks(tasks: unknown[], value: unknown): void {
  const listed = (value ?? {}) as { tasks?: unknown };
  if (!Array.isArray(listed.tasks)) throw new Error('a tasks line is {"tasks":[{"key":...,"executor":{...}}, ...]}');
  // One past the bound is kept, so run-task refuses the attempt instead of silently adding part of it.
  for (const task of listed.tasks as unknown[]) if (tasks.length <= ADD_TASKS_LIMITS.maxTasks) tasks.push(task);
}

function withNotes(tail: string, notes: string[], limit: number): string {
  if (notes.length === 0) return tail;
  const text = `${tail}${tail && !tail.endsWith('\n') ? '\n' : ''}${notes.join('\n')}\n`;
  const bytes = Buffer.from(text);
  return bytes.length > limit ? bytes.subarray(bytes.length - limit).toString('utf8') : text;
}

/**
 * A directive line the worker could not take fails the attempt for good: the same command prints
 * the same line again. Usage that cannot be read is `TeamInvalidUsage`, as for an `activity` task.
 */
function malformedLine(
  malformed: { prefix: string; line: string; reason: string },
  evidence: ExecutorResult,
): ExecutorError {
  const usageLine = malformed.prefix === USAGE_PREFIX;
  return new ExecutorError(
    `malformed ${malformed.prefix} line "${malformed.line}": ${malformed.reason}; ` +
      `a directive line is the prefix and one line of JSON (docs/executors.md)`,
    { nonRetryable: true, type: usageLine ? 'TeamInvalidUsage' : 'TeamShellMalformedLine', ...evidence },
  );
}

/** A shell that could not start. A too-large environment or argument list stays too large on retry. */
function spawnFailure(err: NodeJS.ErrnoException, evidence: ExecutorResult = {}): ExecutorError {
  if (err.code === 'E2BIG') {
    return new ExecutorError(
      'could not start /bin/sh: the environment and arguments are over the system limit (E2BIG); ' +
        'pass large values through files (dependency outputs are always in $TEAMRUN_INPUTS_FILE)',
      { nonRetryable: true, type: 'TeamShellTooBig', ...evidence },
    );
  }
  return new ExecutorError(`could not start /bin/sh: ${err.message}`, { ...evidence });
}

/**
 * The containment of an attempt's processes (shell and agent-cli tasks): a cgroup or a process-tree
 * watch, per `worker.shell.cgroup`; one that cannot be had fails the attempt for good.
 */
export function containProcesses(ctx: ExecutorContext, sandboxed: boolean): AttemptProcesses {
  try {
    return containAttempt(ctx.config.worker.shell.cgroup, environmentMarker(ctx), sandboxed);
  } catch (err) {
    if (err instanceof ContainmentError)
      throw new ExecutorError(err.message, { nonRetryable: true, type: 'TeamShellContainment' });
    throw err;
  }
}
