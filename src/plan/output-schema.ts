/**
 * A task's `outputSchema`: the JSON Schema its output must match (checked on the worker,
 * src/activities/output-check.ts, and by `teamrun validate`). Here only its shape and bound: the workflow
 * holds plans and compiles no schema.
 */
import { z } from 'zod';
import { jsonBytes } from './bytes';

export const OUTPUT_SCHEMA_LIMITS = {
  /** An outputSchema as JSON, in bytes. */
  bytes: 16 * 1024,
  /** Answers an agent may give again after one that did not match, before the task fails. */
  agentFixes: 2,
  /** Problems reported of one mismatch. */
  problems: 10,
} as const;

/** The code of a task whose output does not match its outputSchema. */
export const OUTPUT_INVALID = 'TEAM_TASK_OUTPUT_INVALID';

export const OutputSchemaSchema = z
  .record(z.string(), z.unknown())
  .refine((schema) => jsonBytes(schema) <= OUTPUT_SCHEMA_LIMITS.bytes, {
    message: `an outputSchema is at most ${OUTPUT_SCHEMA_LIMITS.bytes} bytes as JSON`,
  });
