import { TestsSeen } from './tests-run';
import type { Usage } from '../../../plan/schema';
import { UsageRecords, hasPrice, priceUsage } from '../../pricing';
import type { ExecutorContext } from '../types';
import type { CliEvent } from './adapter';
import { isSessionId } from './sessions';

/** The answer kept as the task's output, at most (outputs travel through history; the bound is 64 KiB of JSON). */
export const MAX_CONTENT_CHARS = 32 * 1024;
/** Tool calls in flight remembered, at most (a stream that never ends them cannot grow the worker). */
const MAX_OPEN_TOOLS = 1_024;
/** Unknown event types named in the attempt's log, at most (all of them are counted). */
const MAX_UNKNOWN_NAMES = 8;

/**
 * What one attempt's stream has said so far: its session, its turns and their usage (charged to
 * the run as each turn ends), its tool calls (as `agent:tool` events), its answer and its result.
 */
export class CliProgress {
  sessionId: string | undefined;
  content = '';
  result: Extract<CliEvent, { kind: 'result' }> | undefined;
  turns = 0;
  toolCalls = 0;
  unknown = 0;
  notJson = 0;
  readonly unknownTypes: string[] = [];
  /** The run refused more budget: the attempt is being stopped. */
  refused = false;
  readonly usage = new UsageRecords();
  /** Whether a shell tool call ran a test runner (tests-run.ts). */
  readonly tests = new TestsSeen();
  private readonly tools = new Map<string, { name: string; turn: number; at: number }>();

  constructor(
    private readonly ctx: ExecutorContext,
    private readonly cli: string,
    /** The CLI reports its run's total cost with its result: a turn of an unpriced model waits for it. */
    private readonly reportsCost: boolean,
    private readonly onSession: (id: string) => void,
    /** The plan's `model`: the `prices:` key a turn is priced by when the CLI names its model otherwise. */
    private readonly planModel?: string,
  ) {}

  /** Tokens of turns charged nothing while the CLI's own cost was awaited. */
  private awaitingCost = 0;

  unknownType(type: unknown): void {
    this.unknown++;
    const name = typeof type === 'string' ? type.slice(0, 40) : typeof type;
    if (this.unknownTypes.length < MAX_UNKNOWN_NAMES && !this.unknownTypes.includes(name)) this.unknownTypes.push(name);
  }

  async apply(event: CliEvent): Promise<void> {
    switch (event.kind) {
      case 'session':
        if (isSessionId(event.id) && event.id !== this.sessionId) {
          this.sessionId = event.id;
          this.onSession(event.id);
        }
        return;
      case 'text':
        this.content = bounded(event.text);
        return;
      case 'tool-start':
        this.tests.see(event.command);
        if (this.tools.size < MAX_OPEN_TOOLS)
          this.tools.set(event.id, { name: event.name, turn: this.turns + 1, at: Date.now() });
        return;
      case 'tool-end': {
        const open = this.tools.get(event.id);
        if (!open) return;
        this.tools.delete(event.id);
        this.toolCalls++;
        this.ctx.emit?.({
          type: 'agent:tool',
          turn: open.turn,
          tool: open.name,
          ms: Date.now() - open.at,
          ok: event.ok,
        });
        return;
      }
      case 'turn':
        return this.turn(event.usage, event.tools);
      case 'result':
        this.result = { ...event, content: bounded(event.content) };
        if (event.content) this.content = this.result.content;
        if (event.costUsd !== undefined) await this.costOfRun(event.costUsd);
        return;
    }
  }

  private async turn(usage: Usage, tools: string[]): Promise<void> {
    this.turns++;
    const { inputTokens = 0, outputTokens = 0 } = usage;
    this.ctx.emit?.({ type: 'agent:turn', turn: this.turns, inputTokens, outputTokens, tools: tools.slice(0, 64) });
    const { prices } = this.ctx.config;
    // Priced by the CLI's name for its model, else by the plan's `model` (the key `prices:` holds).
    if (!hasPrice(prices, usage.model) && hasPrice(prices, this.planModel)) {
      await this.charge({ ...usage, model: this.planModel });
      return;
    }
    // Without a price for its model, a CLI that reports its cost at the end is charged then.
    const waitForCost = this.reportsCost && !hasPrice(prices, usage.model);
    if (waitForCost) this.awaitingCost += inputTokens + outputTokens + (usage.cacheTokens ?? 0);
    await this.charge(waitForCost ? { ...usage, costUsd: 0 } : usage);
  }

  /**
   * The stream ended without the CLI's cost (stopped, killed): the turns that waited for it were charged nothing,
   * so their tokens are reported as unpriced (under maxUsd the run fails closed on them), never as free.
   */
  endWithoutCost(): void {
    if (this.awaitingCost === 0 || this.result?.costUsd !== undefined) return;
    this.usage.add({ model: `${this.cli} (cost never reported)`, unpricedTokens: this.awaitingCost });
    this.awaitingCost = 0;
  }

  /** The CLI's own total: what the turns' prices did not already charge. */
  private async costOfRun(totalUsd: number): Promise<void> {
    const charged = priceUsage(this.usage.records, this.ctx.config.prices)?.costUsd ?? 0;
    const rest = Math.round((totalUsd - charged) * 1e9) / 1e9;
    if (rest > 0) await this.charge({ model: `${this.cli} (reported cost)`, costUsd: rest });
  }

  private async charge(usage: Usage): Promise<void> {
    this.usage.add(usage);
    if (this.ctx.budget && !(await this.ctx.budget.report(usage))) this.refused = true;
  }
}

function bounded(text: string): string {
  return text.length > MAX_CONTENT_CHARS
    ? `${text.slice(0, MAX_CONTENT_CHARS)}\n[cut at ${MAX_CONTENT_CHARS} characters]`
    : text;
}
