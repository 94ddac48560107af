/**
 * The `agent` kind: a tool-using loop over the worker's OpenAI-compatible endpoint (`worker.llm`).
 * Each model call and each tool call is a step journaled in the task's `agentJournal` workflow
 * (src/agent) before the loop acts on it, so the next attempt continues from the last step and
 * asks the model nothing it already answered. Budget is reserved before each model call, steers
 * join before it, and each step is reported as a run event. docs/agents.md tells the whole story.
 */
import { journalId, type JournalEntry } from '../../../agent/types';
import { AGENT_LIMITS, AgentSpecSchema, type AgentSpec } from '../../../plan/agent';
import type { Usage } from '../../../plan/schema';
import { Redactor } from '../../redact';
import { hasPrice, tokensCeilingUsd, unpricedModelMessage } from '../../pricing';
import type { ToolSpec } from '../../tools/types';
import { defineExecutor } from '../define';
import { renderPrompt } from '../llm';
import { answerOutput, mailEntry, newMail, outputCheck } from './mail';
import { ExecutorError, type ExecutorContext, type ExecutorResult } from '../types';
import { handBack } from '../model-retry';
import { resolveModel } from '../model/provider';
import { ABORTED_CALL } from '../model/stream';
import { callModel } from './model-call';
import { AgentGateway } from './gateway';
import { ownTools } from './own-tools';
import { INTERRUPTED, runToolCall, type ToolStepContext } from './tool-step';
import { Transcript } from './transcript';
import { JournalWriter } from './owed';

/** A spec as the loop runs it: its model known (its own, or its role's written in by the plan). */
type RunSpec = AgentSpec & { model: string };

export const agentExecutor = defineExecutor(AgentSpecSchema, async (given, ctx) => {
  const { model } = given;
  if (model === undefined) {
    throw new ExecutorError(`role "${given.role}" was not resolved to a model: the plan's agents name its model`, {
      nonRetryable: true,
      type: 'TeamAgentNoModel',
    });
  }
  const spec: RunSpec = { ...given, model };
  if (!ctx.attemptGateway) {
    throw new ExecutorError("the agent kind needs the worker's attempt gateway (createWorker starts one)", {
      nonRetryable: true,
      type: 'TeamAgentNoGateway',
    });
  }
  // Checked before the first call: under maxUsd, tokens of a model with no price would be spent uncounted.
  if (ctx.budget?.pricesRequired && !hasPrice(ctx.config.prices, spec.model)) {
    throw new ExecutorError(unpricedModelMessage(spec.model), { nonRetryable: true, type: 'TeamUnpricedModel' });
  }
  const gateway = new AgentGateway(ctx.attemptGateway, ctx.signal);
  const access = ctx.attemptGateway ? { access: ctx.attemptGateway } : {};
  const toolbox = ctx.tools ? await ctx.tools({ ...identityOf(ctx), signal: ctx.signal, ...access }) : undefined;
  const used: Usage[] = [];
  let transcript: Transcript | undefined;
  try {
    const listed = spec.tools ?? [];
    const external = listed.filter((name) => !name.startsWith('teamrun__'));
    if (external.length && !toolbox) {
      throw new ExecutorError(
        `tools ${external.join(', ')}: this worker has no tools (worker.mcpServers, createWorker({ tools }))`,
        {
          nonRetryable: true,
          type: 'TeamAgentToolUnknown',
        },
      );
    }
    const offered = new Map<string, ToolSpec>();
    for (const tool of [
      ...ownTools(listed, ctx.allowSpawn === true, spec.delegates),
      ...(toolbox && external.length ? await toolbox.resolve(external) : []),
    ])
      offered.set(tool.name, tool);
    transcript = new Transcript((await gateway.journal({ op: 'open' })).entries);
    return await loop(spec, ctx, { gateway, toolbox, offered, transcript, used });
  } catch (err) {
    throw stoppedWith(err, ctx, transcript, used);
  } finally {
    await toolbox?.close();
  }
});

interface Loop {
  gateway: AgentGateway;
  toolbox: ToolStepContext['toolbox'];
  offered: Map<string, ToolSpec>;
  transcript: Transcript;
  used: Usage[];
}

async function loop(spec: RunSpec, ctx: ExecutorContext, state: Loop): Promise<ExecutorResult> {
  const { gateway, transcript } = state;
  // Entries the loop settled ride with its next journal write: one update a step (owed.ts).
  const journal = new JournalWriter(gateway, transcript);
  try {
    return await steps(spec, ctx, state, journal);
  } catch (err) {
    // Whatever ends the loop early leaves the journal whole: what it owes is written first (a failed write: lost).
    await journal.flush().catch(() => undefined);
    throw err;
  }
}

async function steps(
  spec: RunSpec,
  ctx: ExecutorContext,
  state: Loop,
  journal: JournalWriter,
): Promise<ExecutorResult> {
  const { gateway, transcript, used } = state;
  const resolved = resolveModel(spec.model, ctx.config, ctx.env, ctx.models);
  // Whatever is journaled reaches history: the key and the worker's secrets never do.
  const own = new Redactor(resolved.secret ? [resolved.secret] : []);
  const redact = (text: string) => own.text(ctx.redactor.text(text));
  const opening: JournalEntry[] = [];
  if (!transcript.entries.length) opening.push({ kind: 'start', messages: startMessages(spec, ctx, redact) });
  const step: ToolStepContext = {
    gateway,
    toolbox: state.toolbox,
    offered: state.offered,
    signal: ctx.signal,
    timeoutMs: spec.toolTimeoutMs,
    callKey: (call) => `${ctx.taskKey}:agent:${transcript.turns}:${call.id}`.slice(0, 200),
    redact,
    mailHeld: () => transcript.mailUpTo,
    ...(ctx.outputSchema ? { outputSchema: ctx.outputSchema } : {}),
  };
  const maxTurns = spec.maxTurns ?? AGENT_LIMITS.defaultMaxTurns;
  const maxToolCalls = spec.maxToolCalls ?? AGENT_LIMITS.defaultMaxToolCalls;
  const maxTokens = spec.maxTokens ?? AGENT_LIMITS.defaultMaxTokens;
  let inboxJoined = false;
  // The greatest mail id the journal said came (mail.ts); -1: this attempt has not read its inbox yet.
  let mailSeen = -1;
  for (;;) {
    // Calls of the last answer without a result: cut by a crash (reported as such unless the tool
    // is idempotent), or not yet run.
    for (const { call, begun } of transcript.pendingCalls()) {
      const turn = transcript.turns;
      const name = call.function.name;
      if (begun && !state.offered.get(name)?.idempotent) {
        journal.owe({ kind: 'tool-result', turn, id: call.id, name, ok: false, content: INTERRUPTED, ms: 0 });
        continue;
      }
      if (transcript.toolCalls >= maxToolCalls) {
        const content = `error: the task's maxToolCalls (${maxToolCalls}) is spent; answer without tools`;
        journal.owe({ kind: 'tool-result', turn, id: call.id, name, ok: false, content, ms: 0 });
        continue;
      }
      // A worker shutting down starts no new call: the next attempt, elsewhere, runs this one.
      if (ctx.stopping?.aborted) throw handBack(`before tool call ${name} of turn ${turn}`);
      // Journaled as begun (with what the loop owes: the answer that asked for it, the last result) before it runs.
      await journal.append({ kind: 'tool-start', turn, id: call.id, name });
      ctx.progress({ turn, tool: name });
      ctx.moved?.(`tool call "${name}" started (turn ${turn})`);
      const { entry, ms } = await runToolCall(call, turn, step);
      journal.owe(entry);
      ctx.emit?.({ type: 'agent:tool', turn, tool: name, ms, ok: entry.ok });
      ctx.moved?.(`tool call "${name}" ended (turn ${turn})`);
    }
    // The inbox joins once the conversation is whole again (after every tool result it owes).
    if (!inboxJoined) {
      inboxJoined = true;
      const mail = mailEntry(ctx.inbox, transcript, redact);
      if (mail) opening.push(mail);
      journal.owe(...opening.splice(0));
      ctx.moved?.('conversation opened');
    }
    const final = transcript.finalAnswer;
    if (final) {
      const output = answerOutput(transcript, final.content ?? '', ctx.outputSchema);
      // A mismatch goes back to the model (bounded), journaled: a retry sends it back once, not twice.
      const fix = outputCheck(output, transcript, ctx.outputSchema);
      if (!fix) return finish(journal, used, output);
      journal.owe(fix);
      continue;
    }
    const turn = transcript.turns + 1;
    if (turn > maxTurns) {
      throw new ExecutorError(`the agent reached its maxTurns (${maxTurns}) without a final answer`, {
        nonRetryable: true,
        type: 'TeamAgentMaxTurns',
      });
    }
    if (ctx.stopping?.aborted) throw handBack(`before model call ${turn}`);
    // The results owed and the turn's begin in one write; the steers that waited join this call.
    const begun = await journal.beginTurn(turn);
    ctx.moved?.(`model call ${turn}: steers read`);
    const usd = tokensCeilingUsd(ctx.config.prices, spec.model, maxTokens);
    // The call is admitted too (`turns`: counted where the run has budget.maxTurns), in the same ask.
    if (ctx.budget && !(await ctx.budget.reserve({ tokens: maxTokens, ...(usd > 0 ? { usd } : {}), turns: 1 }))) {
      const why = ctx.budget.refusal ? ` (${ctx.budget.refusal.code}: ${ctx.budget.refusal.message})` : '';
      throw new ExecutorError(`the run's budget refused model call ${turn} and its ${maxTokens} tokens${why}`, {
        nonRetryable: true,
        type: 'TEAM_TASK_BUDGET_EXCEEDED',
      });
    }
    // Each exchange with the run and the journal before the call is a step too: on a busy worker they take seconds.
    ctx.moved?.(`model call ${turn}: budget reserved`);
    // Mail that came while the agent worked joins before this call, as steers do: read from the run only when the
    // run said some came (the journal's `mail`), and at this attempt's first call.
    const hinted = begun.mail ?? 0;
    if (mailSeen < 0 || hinted > mailSeen) {
      mailSeen = hinted;
      const mail = await newMail(gateway, transcript, redact);
      if (mail) journal.owe(mail);
    }
    ctx.progress({ turn, tool: null });
    ctx.moved?.(`model call ${turn} started`);
    const answer = await callModel({
      spec,
      ctx,
      resolved,
      turn,
      maxTokens,
      messages: transcript.messages(),
      offered: state.offered.values(),
      redact,
    });
    if (answer.usage) {
      used.push(answer.usage);
      await ctx.budget?.report(answer.usage);
    }
    // What the call was reserved and did not spend goes back: the run holds the usage so far plus the next call.
    await ctx.budget?.release?.();
    const message = ctx.redactor.deep(answer.message);
    // Written with the next write: the first tool call's start, or the finish.
    journal.owe({ kind: 'model', turn, message, ...(answer.usage ? { usage: answer.usage } : {}) });
    ctx.emit?.({
      type: 'agent:turn',
      turn,
      inputTokens: answer.usage?.inputTokens ?? 0,
      outputTokens: answer.usage?.outputTokens ?? 0,
      tools: (message.tool_calls ?? []).map((c) => c.function.name),
    });
    ctx.moved?.(`model call ${turn} answered`);
  }
}

async function finish(journal: JournalWriter, used: Usage[], output: unknown): Promise<ExecutorResult> {
  // The final answer is written with the close. The answer is the task's output whether or not this write lands (the
  // run takes it from the attempt): a failure here must not undo it; the transcript then ends at the last step.
  await journal.finish().catch(() => undefined);
  return { output, ...(used.length ? { usage: used } : {}) };
}

/** The conversation as the first attempt begins it: instructions, then the prompt or messages. */
function startMessages(spec: AgentSpec, ctx: ExecutorContext, redact: (text: string) => string) {
  const given = spec.messages ?? [{ role: 'user' as const, content: spec.prompt ?? '' }];
  return [
    ...(spec.instructions ? [{ role: 'system' as const, content: spec.instructions }] : []),
    ...given.map((m) => ({ role: m.role, content: redact(renderPrompt(m.content, ctx.dependencyOutputs)) })),
  ];
}

/** Where the transcript is, for whoever decides a stopped agent: `teamrun logs RUN KEY` prints it. */
function pointer(ctx: ExecutorContext, transcript: Transcript | undefined) {
  return {
    journal: journalId(ctx.workflowId, ctx.taskKey),
    turns: transcript?.turns ?? 0,
    toolCalls: transcript?.toolCalls ?? 0,
    transcript: `teamrun logs ${ctx.workflowId} ${ctx.taskKey}`,
  };
}

/** Every way the loop ends early carries the transcript's pointer and this attempt's usage. */
function stoppedWith(err: unknown, ctx: ExecutorContext, transcript: Transcript | undefined, used: Usage[]): unknown {
  // A call cut by the stop is charged what was reserved for it (its ExecutorError carries that usage).
  const cut = err instanceof ExecutorError && err.usage !== undefined ? [err.usage].flat() : [];
  const usage = [...used, ...cut];
  const evidence = { output: pointer(ctx, transcript), ...(usage.length ? { usage } : {}) };
  if (err instanceof ExecutorError && err.type !== ABORTED_CALL) {
    return new ExecutorError(err.message, { nonRetryable: err.nonRetryable, type: err.type, ...evidence });
  }
  if (ctx.signal.aborted) {
    return new ExecutorError(`the agent was stopped at turn ${transcript?.turns ?? 0}`, {
      type: 'TeamAgentStopped',
      ...evidence,
    });
  }
  const message = `agent: ${(err as Error)?.message ?? String(err)}`;
  const code = (err as { code?: string })?.code;
  // Another workflow holds the task's journal id: another attempt would meet it too, until someone ends it.
  const nonRetryable = code === 'TEAM_JOURNAL_SQUATTED';
  return new ExecutorError(message, { type: code ?? 'TeamAgentFailed', nonRetryable, ...evidence });
}

function identityOf(ctx: ExecutorContext) {
  const { workflowId, taskKey, attempt, fencingToken, leaseId, holder } = ctx;
  return { workflowId, taskKey, attempt, fencingToken, leaseId, holder };
}
