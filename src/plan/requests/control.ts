/**
 * Control messages' payloads (interrupt, abort, adjudicate): their zod schemas and bounds, and
 * the error a refused one raises. Parsing only: whether a request applies is the run's rule
 * (src/team/takeover.ts, decisions.ts); the verdicts are declared in src/contract.
 */
import { z } from 'zod';
import { TeamrunError } from '../../errors';

/** A control request that cannot apply; `code` is the stable reason a client sees. */
export class TeamControlError extends TeamrunError {
  constructor(
    readonly code: string,
    message: string,
    /** The field that was wrong (`reason`, `result`), when one was. */
    readonly field: string | null = null,
  ) {
    super(message);
    this.name = 'TeamControlError';
  }
}

/**
 * Bounds on every value a control message brings into the run's state. Past one, an update's
 * validator refuses it (`value_too_large`, naming the field) and a signal is recorded as
 * `control:rejected`: nothing oversized is ever held. docs/bounds.md lists them.
 */
export const MESSAGE_LIMITS = {
  /** requestId, actor, decisionId. */
  idChars: 200,
  /** reason. */
  reasonChars: 1_000,
  evidenceDigestChars: 256,
  /** An adjudication's `result`, as JSON: the same bound as a task's output. */
  resultBytes: 64 * 1024,
} as const;

const text = z.string().max(MESSAGE_LIMITS.reasonChars);
const id = z.string().min(1).max(MESSAGE_LIMITS.idChars);
const digest = z.string().max(MESSAGE_LIMITS.evidenceDigestChars);

/** Default code on the adjudications an abort creates; an `abortRun { code }` replaces it. */
export const ABORT_CODE_DEFAULT = 'TEAM_RUN_ABORTED_ADJUDICATION_REQUIRED';
export const AbortCodeSchema = z.string().regex(/^[A-Z0-9_]{1,64}$/, 'code must be 1..64 chars of [A-Z0-9_]');

export const InterruptRequestSchema = z.object({
  key: z.string().min(1).max(128),
  fencingToken: z.union([z.number().int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  requestId: id.optional(),
  actor: id.optional(),
  reason: text.optional(),
  evidenceDigest: digest.optional(),
});
export type InterruptRequest = z.infer<typeof InterruptRequestSchema>;

export const AbortRequestSchema = z.object({
  code: AbortCodeSchema.optional(),
  reason: text.optional(),
  requestId: id.optional(),
  actor: id.optional(),
  requireAdjudication: z.boolean().optional(),
  /**
   * Sent by a parent run stopping its child (docs/teams.md): `token` is the one the parent stamped in the child's plan
   * (`parent.token`); `interrupt`, the parent's interrupt of the team task rather than its abort.
   */
  cascade: z
    .object({ token: z.string().min(1).max(64), interrupt: z.boolean().optional() })
    .strict()
    .optional(),
});
export type AbortRequest = z.infer<typeof AbortRequestSchema>;

/** An outside case id (a ticket): 1..128 chars, a letter or digit first, then letters, digits and `._:#/-`. */
export const CASE_ID = /^[A-Za-z0-9][A-Za-z0-9._:#/-]{0,127}$/;
const CASE_ID_RULE = 'caseId must be 1..128 chars of [A-Za-z0-9._:#/-], starting with a letter or digit';

export const DECISIONS = ['retry', 'accept', 'reject'] as const;
export type Decision = (typeof DECISIONS)[number];

export const AdjudicateRequestSchema = z.object({
  key: z.string().min(1).max(128),
  decision: z.enum(DECISIONS),
  decisionId: id,
  actor: id.optional(),
  reason: text.optional(),
  evidenceDigest: digest.optional(),
  result: z.unknown().optional(),
  /** Binds the adjudication to an outside case (a ticket) if none is bound yet; another bound one refuses. */
  caseId: z.string().regex(CASE_ID, CASE_ID_RULE).optional(),
});
export type AdjudicateRequest = z.infer<typeof AdjudicateRequestSchema>;

/** Sends a settled task back to adjudication (update `reopenTask`); `requestId` makes it idempotent. */
export const ReopenTaskRequestSchema = z.object({
  key: z.string().min(1).max(128),
  reason: text.min(1),
  requestId: id,
  actor: id.optional(),
});
export type ReopenTaskRequest = z.infer<typeof ReopenTaskRequestSchema>;
/** `bindCase`: binds the pending adjudication of `key` to an outside case, once. */
export const BindCaseRequestSchema = z.object({
  key: z.string().min(1).max(128),
  caseId: z.string().regex(CASE_ID, CASE_ID_RULE),
  actor: id.optional(),
});
export type BindCaseRequest = z.infer<typeof BindCaseRequestSchema>;

export const TIGHTENED_LIMITS = ['maxTasks', 'maxTokens', 'maxUsd', 'maxWallMs'] as const;

/**
 * `tightenBudget`: new limits for a running run, each only lower than (or equal to) the one it replaces; a limit the
 * plan did not set may be added. At least one limit; an unknown field (a typo) is refused.
 */
export const TightenBudgetRequestSchema = z
  .object({
    maxTasks: z.number().int().min(0).optional(),
    maxTokens: z.number().nonnegative().optional(),
    maxUsd: z.number().nonnegative().optional(),
    maxWallMs: z.number().int().min(1).optional(),
    requestId: id.optional(),
    actor: id.optional(),
  })
  .strict()
  .refine((r) => TIGHTENED_LIMITS.some((limit) => r[limit] !== undefined), {
    message: 'give at least one of maxTasks, maxTokens, maxUsd, maxWallMs',
  });
export type TightenBudgetRequest = z.infer<typeof TightenBudgetRequestSchema>;

/** Parses a control payload; a malformed one is a `TeamControlError` naming the field. */
export function parseControl<T>(schema: z.ZodType<T>, payload: unknown, message: string): T {
  return parseRequest(schema, payload, message, {
    tooLarge: 'value_too_large',
    malformed: (field) => codeForMalformed(message, field),
    withField: true,
  });
}

/**
 * Parses a request of `message` with `schema`; the first problem is thrown as a `TeamControlError`
 * saying where (`message: path: problem`), with `tooLarge` for a value past its bound and
 * `malformed(first path segment)` for anything else, and the path as its field when `withField`.
 */
export function parseRequest<T>(
  schema: z.ZodType<T>,
  payload: unknown,
  message: string,
  codes: { tooLarge: string; malformed: (field: PropertyKey | undefined) => string; withField: boolean },
): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue.path.length ? issue.path.join('.') : null;
  const code = issue.code === 'too_big' ? codes.tooLarge : codes.malformed(issue.path[0]);
  throw new TeamControlError(code, `${message}: ${path ?? 'payload'}: ${issue.message}`, codes.withField ? path : null);
}

function codeForMalformed(message: string, field: PropertyKey | undefined): string {
  if (field === 'caseId') return 'invalid_case_id';
  if (message !== 'adjudicate') return 'invalid_request';
  if (field === 'decision') return 'invalid_decision';
  if (field === 'decisionId') return 'decision_id_required';
  if (field === 'key') return 'not_found';
  return 'invalid_request';
}
