/** The attempt gateway's `/reserve`: what `teamrun reserve` inside a task asks of its attempt's live budget. */
import { z } from 'zod';
import { EXTENSION_LIMITS } from '../../plan/requests/budget';
import type { LiveBudget } from '../executors/types';
import { BUDGET_EXCEEDED } from '../live-budget';

/** What the gateway answers a task's request. */
export type GatewayAnswer = { ok: true; answer: unknown } | { ok: false; code: string; message: string };

const ReserveSchema = z
  .object({
    tokens: z.number().int().nonnegative().max(EXTENSION_LIMITS.tokens).optional(),
    usd: z.number().nonnegative().max(EXTENSION_LIMITS.usd).optional(),
  })
  .strict();

/** `teamrun reserve`: the attempt's live reservation asked first; granted, or refused (the attempt is then stopped). */
export async function reserve(attempt: { budget?: LiveBudget }, body: unknown): Promise<[number, GatewayAnswer]> {
  const parsed = ReserveSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue.path.length ? issue.path.join('.') : 'payload';
    return [400, { ok: false, code: 'TEAM_ATTEMPT_REQUEST_INVALID', message: `reserve: ${where}: ${issue.message}` }];
  }
  if (!attempt.budget) {
    return [409, { ok: false, code: 'TEAM_ATTEMPT_NO_BUDGET', message: 'reserve: this attempt has no live budget' }];
  }
  if (await attempt.budget.reserve(parsed.data)) return [200, { ok: true, answer: { granted: parsed.data } }];
  return [
    402,
    {
      ok: false,
      code: BUDGET_EXCEEDED,
      message:
        `reserve: the run refused ${parsed.data.tokens ?? 0} tokens and $${parsed.data.usd ?? 0}; ` +
        'the attempt is stopped',
    },
  ];
}
