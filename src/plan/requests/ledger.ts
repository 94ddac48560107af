/**
 * The shared ledger's message payloads: zod schemas, the ledger's workflow id, and the error a
 * refused request raises. Parsing only; the rules are in src/ledger/rules.ts, the Temporal side in
 * src/ledger/workflow.ts.
 */
import { z } from 'zod';
import { TeamrunError } from '../../errors';
import { MAX_TIMEOUT_MS } from '../fields';
import { OperatorNameSchema, PLAN_LIMITS, UsageSchema } from '../schema';
import { AttemptProofSchema } from './caller';

export { LedgerIdSchema } from '../schema';

/** The ledger's workflow id; also the actor its cascade aborts carry. */
export const ledgerWorkflowId = (id: string): string => `ledger:${id}`;
export const ledgerActor = ledgerWorkflowId;

/** Bounds of the ledger's limits across its runs. */
export const LEDGER_TREE_MAX = { spawnedTasks: 1_000_000 } as const;

export const LedgerLimitsSchema = z
  .object({
    /** Attempts in flight across every run that uses the ledger. */
    maxConcurrent: z.number().int().min(1).optional(),
    maxTokens: z.number().nonnegative().optional(),
    maxUsd: z.number().nonnegative().optional(),
    /** Usage resets every `windowMs` (e.g. a day); absent = one window forever. */
    windowMs: z.number().int().min(1_000).optional(),
    /**
     * Tasks added while runs work (`addTasks`, `::teamrun-tasks::`, a model's `add_tasks`), across every run on the
     * ledger: each run holds a share from its registration (src/ledger/tree.ts).
     */
    maxSpawnedTasks: z.number().int().min(0).max(LEDGER_TREE_MAX.spawnedTasks).optional(),
    /** Agent model calls across every run on the ledger, each asked for before it is made. */
    maxTurns: z.number().int().min(0).max(PLAN_LIMITS.maxTurns).optional(),
    /** How deep any run on the ledger may add tasks (a plan's `budget.maxDepth` at most this). */
    maxDepth: z.number().int().min(0).max(100).optional(),
    /** How long any run on the ledger may work from its start (a plan's `budget.maxWallMs` at most this). */
    maxWallMs: z.number().int().min(1_000).max(MAX_TIMEOUT_MS).optional(),
  })
  .strict();
export type LedgerLimits = z.infer<typeof LedgerLimitsSchema>;

/**
 * Who may force a loosening, resolve and abort every run of a ledger: names as a plan's `governance.operators`
 * gives them, each once. Absent: the ledger trusts any actor.
 */
export const MAX_LEDGER_OPERATORS = PLAN_LIMITS.maxOperators;
export const LedgerOperatorsSchema = z
  .array(OperatorNameSchema)
  .min(1, 'name at least one operator')
  .max(MAX_LEDGER_OPERATORS)
  .refine((names) => new Set(names).size === names.length, { message: 'names an operator twice' });

const workflowId = z.string().min(1).max(1_000);
/** `<workflowId>/<taskKey>/<fencingToken>`: the leaseId of the attempt. */
const attemptId = z.string().min(1).max(1_500);
const reservation = z.object({ tokens: z.number().nonnegative(), usd: z.number().nonnegative() }).strict();
/** `<who>` in the ledger's records: an operator's name. */
const actor = z.string().min(1).max(200);

export const UnregisterRequestSchema = z
  .object({
    workflowId,
    /** The tasks the run added while registered: charged in place of its share (absent: the whole share). */
    spawned: z.number().int().min(0).max(LEDGER_TREE_MAX.spawnedTasks).optional(),
  })
  .strict();
export type UnregisterRequest = z.infer<typeof UnregisterRequestSchema>;

/** The most attempts one block of a run's slots holds at once. */
export const MAX_BLOCK_SLOTS = 256;

export const AcquireRequestSchema = z
  .object({
    attemptId,
    workflowId,
    reservation,
    /** How long the slot lives without a renewal: a timer's bound at most (a run asks twice its lease's TTL). */
    leaseMs: z.number().int().min(1_000).max(MAX_TIMEOUT_MS),
    /**
     * The task's scopes (its plan's `defaultScope` where it names none): held with the slot, so no attempt of any run
     * on the ledger holds an overlapping one at the same time (src/ledger/scopes.ts). Absent: the attempt claims none.
     */
    scope: z.array(z.string().min(1).max(500)).min(1).max(PLAN_LIMITS.maxScope).optional(),
    /** The task and fencing token the attempt is, for the status's list of held scopes. */
    task: z.string().min(1).max(200).optional(),
    fencingToken: z.number().int().min(0).optional(),
    /**
     * Work outside a team run (src/ledger/outside.ts): no run settles the slot if its holder dies, so a slot that
     * expires unsettled is settled as lost (its usage unknown) by the ledger itself.
     */
    outside: z.literal(true).optional(),
    /**
     * A block: the slots of up to this many of the run's attempts at once, `reservation` what they hold together
     * (src/ledger/blocks.ts). The ledger grants as many as fit, one at least, with the reservation cut to match.
     * Absent: one attempt's slot.
     */
    slots: z.number().int().min(1).max(MAX_BLOCK_SLOTS).optional(),
  })
  .strict();
export type AcquireRequest = z.infer<typeof AcquireRequestSchema>;

export const RegisterRequestSchema = z
  .object({
    workflowId,
    name: z.string().max(200).optional(),
    /** The share of the ledger's `maxSpawnedTasks` the run asks to hold while it is registered. */
    spawns: z.number().int().min(0).max(LEDGER_TREE_MAX.spawnedTasks).optional(),
    /**
     * The run id of the run's first execution (Temporal's, kept across continue-as-new): a workflow started later
     * under the same workflow id is another run, not this one registering again.
     */
    firstRunId: z.string().min(1).max(200).optional(),
    /**
     * The run's first block of slots, asked with its registration (src/ledger/blocks.ts): taken once the run is
     * registered, in the same update, and answered beside the registration. Its `workflowId` is the run's own.
     */
    block: AcquireRequestSchema.refine((block) => block.slots !== undefined, 'a block names its slots').optional(),
  })
  .strict();
export type RegisterRequest = z.infer<typeof RegisterRequestSchema>;

export const SettleRequestSchema = z
  .object({
    attemptId,
    usage: UsageSchema.nullable(),
    /** The attempt's outcome was lost (its lease expired): its usage is unknown, `reservation` what it held. */
    lost: z.object({ reservation, workflowId }).strict().optional(),
    /** A block's settlement: how many attempts it held in all, each counted as one of the ledger's attempts. */
    attempts: z.number().int().min(0).max(1_000_000).optional(),
  })
  .strict();
export type SettleRequest = z.infer<typeof SettleRequestSchema>;

/**
 * A running attempt's slot grows by `extension`: its run granted the attempt that much more. `extensionId` is the
 * run's name for this one extension, so a retried request grows the slot once.
 */
export const ExtendRequestSchema = z
  .object({
    attemptId,
    extensionId: z.string().min(1).max(200),
    extension: reservation,
    /** The attempt's next agent model calls, counted against the ledger's `maxTurns` once granted. */
    turns: z.number().int().min(1).max(1_000).optional(),
  })
  .strict();
export type ExtendRequest = z.infer<typeof ExtendRequestSchema>;

export const RenewRequestSchema = z.object({ attemptId }).strict();
export type RenewRequest = z.infer<typeof RenewRequestSchema>;

/** Slots one `renewSlots` update renews at most; a worker holding more sends several. */
export const MAX_RENEWED_SLOTS = 256;

/** Keeps these attempts' slots one lease longer: a worker's running attempts on the ledger, in one update. */
export const RenewSlotsRequestSchema = z
  .object({ attemptIds: z.array(attemptId).min(1).max(MAX_RENEWED_SLOTS) })
  .strict();
export type RenewSlotsRequest = z.infer<typeof RenewSlotsRequestSchema>;

export const AbortAllRequestSchema = z
  .object({ reason: z.string().max(4_000).optional(), actor: z.string().min(1).max(500).optional() })
  .strict();
export type AbortAllRequest = z.infer<typeof AbortAllRequestSchema>;

/**
 * New limits; a loosening needs `force` and the `actor` who forces it (one of the ledger's operators when it has
 * any). `operators` sets the list: on a ledger without one anyone may, an existing list only one of its operators.
 */
export const ConfigureRequestSchema = z
  .object({
    limits: LedgerLimitsSchema,
    force: z.boolean().optional(),
    actor: actor.optional(),
    operators: LedgerOperatorsSchema.optional(),
  })
  .strict();
export type ConfigureRequest = z.infer<typeof ConfigureRequestSchema>;

/**
 * An operator settles a ledger's lost attempts: the usage they had (`usage`, all of them together) or their
 * reservations as the charge (`release`); exactly one of the two.
 */
export const ResolveRequestSchema = z
  .object({ usage: UsageSchema.optional(), release: z.literal(true).optional(), actor })
  .strict()
  .refine((r) => (r.usage === undefined) !== (r.release === undefined), {
    message: 'give either usage or release: true, not both or neither',
  });
export type ResolveRequest = z.infer<typeof ResolveRequestSchema>;

/**
 * Who a ledger update says it is from, beside its own fields: the worker's proof (`proof: { queue, nonce }`, which
 * the ledger confirms with that worker before it records anything) or a person's `actor`. Parsing only; whether that
 * caller may send it is src/ledger/doors.ts's rule.
 */
export interface LedgerCaller {
  proof?: z.infer<typeof AttemptProofSchema>;
  actor?: string;
  /** The request without `proof` (and without `actor` where its own schema has none). */
  request: unknown;
}

const LedgerCallerSchema = z.object({
  proof: AttemptProofSchema.optional(),
  actor: z.string().min(1).max(200).optional(),
});

/** Splits a worker's update into who sends it and the request its own schema checks. */
export function ledgerCallerOf(payload: unknown, message: string): LedgerCaller {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { request: payload };
  const { proof, actor } = parseLedgerRequest(LedgerCallerSchema, payload, message);
  const { proof: _proof, actor: _actor, ...request } = payload as Record<string, unknown>;
  return { ...(proof ? { proof } : {}), ...(actor ? { actor } : {}), request };
}

/** A malformed ledger request: `code` is stable, the message names the field. */
export class LedgerRequestError extends TeamrunError {
  readonly code = 'invalid_ledger_request';
  constructor(message: string) {
    super(message);
    this.name = 'LedgerRequestError';
  }
}

export function parseLedgerRequest<T>(schema: z.ZodType<T>, payload: unknown, message: string): T {
  const parsed = schema.safeParse(payload);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? issue.path.join('.') : 'payload';
  throw new LedgerRequestError(`${message}: ${where}: ${issue.message}`);
}
