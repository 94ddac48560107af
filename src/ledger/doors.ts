/**
 * Who may send a shared ledger the updates that spend from it. `acquire`, `extend`, `settle`, `register` and
 * `unregister` are a team run's, sent by its worker's ledger activities: each carries the worker's proof
 * (`proof: { queue, nonce }`, a one-time nonce its gateway drew for this ledger, this update and this request's
 * digest), which the ledger confirms with that worker before it records anything. Without a proof, only one of the
 * ledger's operators may send them (a repair by hand); a ledger without operators takes them from workers only.
 * Pure: the workflow (door-handlers.ts) turns a refusal into its failure, the worker (activities.ts) draws the digest.
 */
import { sha256, toHex } from '../agent/sha256';
import type { AttemptProof } from '../contract';
import { ApplicationFailure } from '@temporalio/common';
import { ledgerWorkflowId, type LedgerCaller, type RegisterRequest } from '../plan/requests/ledger';
import type { OperatorRefusal } from './operators';

/** The updates a run's worker sends, and what each does, as a refusal names it. */
export const WORKER_CALLS = {
  acquire: 'take a slot',
  extend: 'grow a slot',
  settle: 'settle an attempt',
  register: 'register a run',
  unregister: 'unregister a run',
  batch: 'take, grow and settle slots',
  renewSlots: 'renew slots',
} as const;
export type WorkerCall = keyof typeof WORKER_CALLS;

/** Draws a worker's one-time proof for a ledger update: the gateway's `proveLedger` (activities.ts). */
export type ProveLedgerCall = (ledgerWorkflowId: string, call: string, digest: string) => AttemptProof;

/** The request with the worker's proof beside its own fields, drawn for this ledger, update and request. */
export function provenRequest<R extends object>(
  prove: ProveLedgerCall,
  ledgerId: string,
  call: WorkerCall,
  request: R,
): R & { proof: AttemptProof } {
  return { ...request, proof: prove(ledgerWorkflowId(ledgerId), call, ledgerRequestDigest(call, request)) };
}

/** What the worker's proof of a ledger update is drawn for: the update's name and its request, byte for byte. */
export function ledgerRequestDigest(call: string, request: unknown): string {
  return toHex(sha256(new TextEncoder().encode(`${call}\n${JSON.stringify(request)}`)));
}

/**
 * What a worker signs of a ledger update it proves: the ledger, the update's name, its request's digest, the nonce and
 * when (its clock). Tagged apart from an attempt's signed answer (`signedProofText`), so neither passes for the other.
 */
export function signedLedgerText(
  proof: { nonce: string; signedAt: number },
  ledgerWorkflowId: string,
  call: string,
  digest: string,
): string {
  return JSON.stringify(['teamrun-ledger-proof', ledgerWorkflowId, call, digest, proof.nonce, proof.signedAt]);
}

/** `forbidden` unless the update carries a worker's proof (confirmed later) or comes from one of the operators. */
export function workerCallRefusal(
  ledgerId: string,
  operators: readonly string[] | undefined,
  caller: LedgerCaller,
  call: WorkerCall,
): OperatorRefusal | null {
  if (caller.proof) return null;
  if (operators && caller.actor !== undefined && operators.includes(caller.actor)) return null;
  const who = operators
    ? `actor "${caller.actor ?? ''}" is not one of the ledger's operators`
    : "the ledger has no operators, so only a run's worker may";
  return {
    code: 'forbidden',
    message:
      `ledger ${ledgerId}: ${call} needs the proof of the team run's worker that sends it (only a run's ledger ` +
      `activities ${WORKER_CALLS[call]}); ${who}`,
  };
}

/** A block asked with a registration is the registering run's: one naming another run is refused, nothing recorded. */
export function refuseOthersBlock({ workflowId, block }: RegisterRequest): void {
  if (!block || block.workflowId === workflowId) return;
  const message = `the block asked with the registration of ${workflowId} names run ${block.workflowId}`;
  throw ApplicationFailure.nonRetryable(`forbidden: ${message}`, 'forbidden');
}
