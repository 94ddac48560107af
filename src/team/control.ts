import { z } from 'zod';

/** A control request that cannot apply; `code` is the stable reason a client sees. */
export class TeamControlError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'TeamControlError';
  }
}

const text = z.string().max(4_000);
const id = z.string().min(1).max(500);

export const InterruptRequestSchema = z.object({
  key: z.string().min(1).max(128),
  fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  requestId: id.optional(),
  actor: id.optional(),
  reason: text.optional(),
  evidenceDigest: z.string().max(500).optional(),
});
export type InterruptRequest = z.infer<typeof InterruptRequestSchema>;

export const AbortRequestSchema = z.object({
  reason: text.optional(),
  requestId: id.optional(),
  actor: id.optional(),
  requireAdjudication: z.boolean().optional(),
});
export type AbortRequest = z.infer<typeof AbortRequestSchema>;

export const DECISIONS = ['retry', 'accept', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];

export const AdjudicateRequestSchema = z.object({
  key: z.string().min(1).max(128),
  decision: z.enum(DECISIONS),
  decisionId: id,
  actor: id.optional(),
  reason: text.optional(),
  evidenceDigest: z.string().max(500).optional(),
  result: z.unknown().optional(),
});
export type AdjudicateRequest = z.infer<typeof AdjudicateRequestSchema>;

/** Parses a control payload; a malformed one is a `TeamControlError` naming the field. */
export function parseControl<T>(schema: z.ZodType<T>, payload: unknown, message: string): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'payload';
  throw new TeamControlError(codeForMalformed(message, issue.path[0]), `${message}: ${where}: ${issue.message}`);
}

function codeForMalformed(message: string, field: PropertyKey | undefined): string {
  if (message !== 'adjudicate') return 'invalid_request';
  if (field === 'decision') return 'invalid_decision';
  if (field === 'decisionId') return 'decision_id_required';
  if (field === 'key') return 'not_found';
  return 'invalid_request';
}

export type InterruptVerdict =
  | { ok: true; idempotent?: true; interruption: Record<string, unknown> }
  | { ok: false; reason: 'not_active' | 'stale_attempt' | 'already_interrupted' | 'forbidden' | 'invalid_request'; message?: string };

export type AbortVerdict = { ok: true; idempotent?: true; activeClaims: number } | { ok: false; reason: string; message?: string };
