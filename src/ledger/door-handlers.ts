/**
 * The ledger's worker doors in its workflow (doors.ts has the rule): the validator takes a request only with its
 * worker's proof (or from an operator), a nonce once, and so many confirmations at once; the handler takes the
 * update on its worker's signature (signed-doors.ts) or confirms the proof with the worker it names before the update
 * is applied. Workflow code.
 */
import { ApplicationFailure, patched } from '@temporalio/workflow';
import type { AttemptProof } from '../contract';
import type { ZodType } from 'zod';
import {
  LedgerRequestError,
  RegisterRequestSchema,
  ledgerCallerOf,
  ledgerWorkflowId,
  parseLedgerRequest,
} from '../plan/requests/ledger';
import { TeamControlError } from '../plan/requests/control';
import { AttemptConfirmations } from '../team/governance';
import { confirmAttemptRequest } from '../workflows/stop-channel';
import { ledgerRequestDigest, refuseOthersBlock, workerCallRefusal, type WorkerCall } from './doors';
import { LEDGER_SIGNED_PATCH, SignedLedgerDoors, type SignedDoorsSnapshot, type SignedUpdate } from './signed-doors';

/** Marks a ledger whose worker updates are confirmed with their worker (histories before it apply them as sent). */
export const LEDGER_PROOF_PATCH = 'teamrun-ledger-proof';

export interface LedgerDoorState {
  id: string;
  operators: readonly string[] | undefined;
}

/** Checks (validator) and confirms (handler) the worker's updates of one ledger. */
export class WorkerDoors {
  private readonly confirmations = new AttemptConfirmations();
  private readonly signed: SignedLedgerDoors;

  constructor(
    private readonly ledger: () => LedgerDoorState,
    carried?: SignedDoorsSnapshot,
  ) {
    this.signed = new SignedLedgerDoors(carried);
  }

  /** What continue-as-new carries of the doors: the confirmed keys and the nonces taken on a signature. */
  snapshot(now: number): SignedDoorsSnapshot {
    return this.signed.snapshot(now);
  }

  /** The validator's part: who sends it may; returns the request its own schema parsed. */
  check<T>(call: WorkerCall, payload: unknown, schema: ZodType<T>): T {
    const { id, operators } = this.ledger();
    const caller = failing(() => ledgerCallerOf(payload, call));
    const request = failing(() => parseLedgerRequest(schema, caller.request, call));
    const refusal = workerCallRefusal(id, operators, caller, call);
    if (refusal) throw ApplicationFailure.nonRetryable(`${refusal.code}: ${refusal.message}`, refusal.code);
    if (caller.proof && this.signed.taken(caller.proof.nonce)) throw copied(id, call, caller.proof);
    failing(() => this.confirmations.check({ attempt: caller.proof, request }, `ledger ${id}: ${call}`));
    return request;
  }

  /** The validator's part for a registration: as `check`, and a block it carries is the registering run's. */
  checkRegistration(payload: unknown): void {
    refuseOthersBlock(this.check('register', payload, RegisterRequestSchema));
  }

  /**
   * The handler's part, before `apply`: a request with a proof is the worker's only once that worker confirms it drew
   * the proof for this ledger, this update and this request, or when it carries that worker's signature under the key
   * it confirmed (signed-doors.ts). One without (an operator's, or one recorded before the proofs) applies in the same
   * step, as it always did.
   */
  handle<T, R>(call: WorkerCall, payload: unknown, schema: ZodType<T>, apply: (request: T) => R): R | Promise<R> {
    const caller = failing(() => ledgerCallerOf(payload, call));
    const request = failing(() => parseLedgerRequest(schema, caller.request, call));
    const { proof } = caller;
    if (!proof || !patched(LEDGER_PROOF_PATCH)) return apply(request);
    const { id } = this.ledger();
    const update = { ledgerWorkflowId: ledgerWorkflowId(id), call, digest: ledgerRequestDigest(call, caller.request) };
    if (proof.signingKey && patched(LEDGER_SIGNED_PATCH)) {
      // Two copies in one activation pass their validators together: the handler decides which one is the update.
      if (this.signed.taken(proof.nonce)) throw copied(id, call, proof);
      if (this.signed.take(proof, update, Date.now())) return apply(request);
      return this.confirm(call, proof, update, true).then(() => apply(request));
    }
    return this.confirm(call, proof, update, false).then(() => apply(request));
  }

  private async confirm(call: WorkerCall, proof: AttemptProof, update: SignedUpdate, signed: boolean): Promise<void> {
    const { id } = this.ledger();
    this.confirmations.begin(proof);
    let yes = false;
    try {
      const request = { workflowId: update.ledgerWorkflowId, key: call, fencingToken: 0, message: 'ledger' as const };
      const key = signed ? { signingKey: proof.signingKey } : {};
      yes = await confirmAttemptRequest(proof, { ...request, anchor: update.digest, ...key });
    } finally {
      this.confirmations.end(proof, yes);
    }
    if (yes && signed) this.signed.confirmed(proof, update);
    if (!yes) {
      throw ApplicationFailure.nonRetryable(
        `forbidden: ledger ${id}: ${call}: the worker on ${proof.queue} did not vouch for it (nonce ${proof.nonce})`,
        'forbidden',
      );
    }
  }
}

function copied(id: string, call: WorkerCall, proof: AttemptProof) {
  return ApplicationFailure.nonRetryable(
    `forbidden: ledger ${id}: ${call}: nonce ${proof.nonce} was taken already; each update needs a new one`,
    'forbidden',
  );
}

function failing<T>(check: () => T): T {
  try {
    return check();
  } catch (err) {
    if (err instanceof LedgerRequestError) throw ApplicationFailure.nonRetryable(err.message, err.code);
    if (err instanceof TeamControlError) throw ApplicationFailure.nonRetryable(`${err.code}: ${err.message}`, err.code);
    throw err;
  }
}
