/**
 * Who a request says it is from: the optional `actor` and the worker's proof (`attempt`) that any
 * message may carry beside its own fields. Parsing only: whether that caller may send it is the
 * run's rule (src/team/governance.ts).
 */
import { z } from 'zod';
import { MAX_STOP_QUEUE_CHARS } from '../lease-pace';
import { parseControl } from './control';

export const AttemptProofSchema = z
  .object({
    queue: z.string().min(1).max(MAX_STOP_QUEUE_CHARS),
    nonce: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'nonce must be 16..64 chars of [A-Za-z0-9_-]'),
    signingKey: z
      .string()
      .regex(/^[A-Za-z0-9_-]{43}$/, 'signingKey must be an Ed25519 public key in base64url')
      .optional(),
    signature: z
      .string()
      .regex(/^[A-Za-z0-9_-]{86}$/, 'signature must be an Ed25519 signature in base64url')
      .optional(),
    signedAt: z.number().int().min(0).max(8.64e15).optional(),
  })
  .strict();

const CallerSchema = z.object({
  // A malformed actor is the request's own schema's to refuse, with its own code.
  actor: z.string().min(1).max(200).optional().catch(undefined),
  attempt: AttemptProofSchema.optional(),
});

/** Who a request says it is from, and the request without the proof (which its own schema does not know). */
export interface Caller {
  actor?: string;
  attempt?: z.infer<typeof AttemptProofSchema>;
  request: unknown;
}

export function callerOf(payload: unknown, message: string): Caller {
  // Not an object: the request's own schema refuses it with its own code.
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { request: payload };
  const { actor, attempt } = parseControl(CallerSchema, payload, message);
  const { attempt: _proof, ...request } = payload as Record<string, unknown>;
  return { ...(actor ? { actor } : {}), ...(attempt ? { attempt } : {}), request };
}
