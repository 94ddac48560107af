/**
 * An attempt's live reservation on its worker (the ExecutorContext's `budget`): usage is priced and
 * counted as it is reported, and past the grant the attempt asks its run for the overshoot
 * (`extendReservation`, through the attempt gateway). `reserve` asks before spending. A refusal
 * (or a run that cannot be reached: it fails closed) stops the attempt: `TEAM_TASK_BUDGET_EXCEEDED`.
 */
import { ApplicationFailure } from '@temporalio/activity';
import type { Price } from '../config/config';
import type { Usage } from '../plan/schema';
import { BUDGET_EXCEEDED_CODE } from '../team/routing';
import type { Grant } from '../team/types';
import type { LiveBudget } from './executors/types';
import { usageTokens } from '../team/budget';
import { priceUsage } from './pricing';
import type { AttemptEvidence } from './interface';

/** The failure type, and adjudication code, of an attempt its run refused more budget. */
export const BUDGET_EXCEEDED = BUDGET_EXCEEDED_CODE;

/** How the attempt asks its run for more: what it holds now once granted, or the refusal's code. */
export type AskRun = (extension: {
  tokens?: number;
  usd?: number;
  turns?: number;
}) => Promise<{ ok: true; granted: { tokens: number; usd: number } } | { ok: false; code: string; message: string }>;

type Amount = { tokens: number; usd: number };

const USD_EPSILON = 1e-9;
/**
 * A refused `reserve` stops the attempt this long after it answers: the process that asked (`teamrun
 * reserve`, exit 3) can see the refusal. Nothing it spends meanwhile was granted, and it is charged.
 */
export const RESERVE_STOP_GRACE_MS = 1_000;
const roundUsd = (usd: number) => Math.ceil(usd * 1e9 - 1e-3) / 1e9;

export class AttemptBudget implements LiveBudget {
  readonly granted: Amount;
  readonly used: Amount = { tokens: 0, usd: 0 };
  /** An executor said what it spent cannot be known (`markUnknown`): its run charges it as a lost lease's. */
  usageUnknown = false;
  /** Why the run refused, once it did: the attempt is being stopped. */
  refusal: { code: string; message: string } | null = null;
  /** Reserved through `reserve` and not yet reported. */
  private readonly promised: Amount = { tokens: 0, usd: 0 };
  /** One ask at a time, in order: two asks never both count the same part of the grant. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly limited: Grant,
    private readonly prices: ReadonlyMap<string, Price> | Record<string, Price>,
    private readonly ask: AskRun,
    private readonly onRefused: (refusal: { code: string; message: string }) => void,
  ) {
    this.granted = { tokens: limited.tokens ?? 0, usd: limited.usd ?? 0 };
  }

  /**
   * `turns`: model calls about to be made. Where the run counts them (its grant says so) they are asked for in the
   * same request as any tokens and dollars the grant lacks: one round trip per call, refused `max-turns` past them.
   */
  reserve(ask: { tokens?: number; usd?: number; turns?: number }): Promise<boolean> {
    return this.serially(async () => {
      const wanted = { tokens: Math.max(0, ask.tokens ?? 0), usd: Math.max(0, ask.usd ?? 0) };
      const turns = this.limited.turns ? Math.max(0, Math.floor(ask.turns ?? 0)) : 0;
      const short = this.shortBy(wanted, this.promised);
      const asked = turns > 0 ? { ...short, turns } : short;
      if (asked && !(await this.extend(asked, RESERVE_STOP_GRACE_MS))) return false;
      this.promised.tokens += wanted.tokens;
      this.promised.usd += wanted.usd;
      return true;
    });
  }

  markUnknown(): void {
    this.usageUnknown = true;
  }

  get pricesRequired(): boolean {
    return this.limited.pricesRequired === true;
  }

  release(): Promise<void> {
    return this.serially(async () => {
      this.promised.tokens = 0;
      this.promised.usd = 0;
    });
  }

  report(usage: Usage): Promise<boolean> {
    return this.serially(async () => {
      const priced = priceUsage(usage, this.prices);
      const spent = {
        tokens: usageTokens(priced),
        usd: priced?.costUsd ?? 0,
      };
      this.used.tokens += spent.tokens;
      this.used.usd += spent.usd;
      // What was reserved for it is spent now.
      this.promised.tokens = Math.max(0, this.promised.tokens - spent.tokens);
      this.promised.usd = Math.max(0, this.promised.usd - spent.usd);
      const over = this.shortBy({ tokens: 0, usd: 0 }, this.promised);
      return over ? this.extend(over, 0) : true;
    });
  }

  /** What the grant lacks to cover usage, what was promised and `more`; null when it covers them. */
  private shortBy(more: Amount, promised: Amount): { tokens?: number; usd?: number } | null {
    const need = (limited: number | null, granted: number, used: number, held: number, extra: number) =>
      limited === null ? 0 : Math.max(0, used + held + extra - granted);
    const tokens = need(this.limited.tokens, this.granted.tokens, this.used.tokens, promised.tokens, more.tokens);
    const usd = need(this.limited.usd, this.granted.usd, this.used.usd, promised.usd, more.usd);
    if (tokens <= 0 && usd <= USD_EPSILON) return null;
    return {
      ...(tokens > 0 ? { tokens: Math.ceil(tokens) } : {}),
      ...(usd > USD_EPSILON ? { usd: roundUsd(usd) } : {}),
    };
  }

  /** `graceMs`: how long the refused attempt's processes have to hear the answer before they are stopped. */
  private async extend(
    extension: { tokens?: number; usd?: number; turns?: number },
    graceMs: number,
  ): Promise<boolean> {
    if (this.refusal) return false;
    let answer: Awaited<ReturnType<AskRun>>;
    try {
      answer = await this.ask(extension);
    } catch (err) {
      answer = { ok: false, code: 'TEAM_ATTEMPT_GATEWAY_FAILED', message: (err as Error)?.message ?? String(err) };
    }
    if (answer.ok) {
      this.granted.tokens = Math.max(this.granted.tokens, answer.granted.tokens);
      this.granted.usd = Math.max(this.granted.usd, answer.granted.usd);
      return true;
    }
    const refusal = { code: answer.code, message: answer.message };
    this.refusal = refusal;
    if (graceMs > 0) setTimeout(() => this.onRefused(refusal), graceMs).unref();
    else this.onRefused(refusal);
    return false;
  }

  private serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step, step);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/**
 * The failure of an attempt its run refused more budget: not retried, adjudicated, and charged what it
 * reported (what its live budget counted, when the executor handed over no usage of its own).
 */
export function budgetExceeded(budget: AttemptBudget, evidence: AttemptEvidence): ApplicationFailure {
  const { used, granted, refusal } = budget;
  const usage =
    evidence.usage ?? (used.tokens > 0 || used.usd > 0 ? { outputTokens: used.tokens, costUsd: used.usd } : undefined);
  return ApplicationFailure.create({
    type: BUDGET_EXCEEDED,
    message:
      `the run refused the attempt more budget (${refusal?.code ?? 'refused'}): it had used ${used.tokens} tokens ` +
      `and $${Math.round(used.usd * 1e6) / 1e6} of the ${granted.tokens} tokens and $${granted.usd} granted` +
      (refusal?.message ? `; ${refusal.message.slice(0, 300)}` : ''),
    nonRetryable: true,
    details: [{ ...evidence, ...(usage ? { usage } : {}) }],
  });
}
