/**
 * A task's `outputSchema` checked against what its attempt output (any kind): ajv, one compiled validator per
 * schema text on this worker. An agent gets its mismatches back to fix them (executors/agent/output.ts); any other
 * kind's attempt fails `TEAM_TASK_OUTPUT_INVALID` with them. ajv is loaded with the first schema a worker checks: most
 * tasks name none (docs/benchmarks.md, issue 42).
 */
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import { OUTPUT_INVALID, OUTPUT_SCHEMA_LIMITS } from '../plan/output-schema';
import { ExecutorError, type ExecutorResult } from './executors/types';

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();
/** Schemas kept compiled, at most (a plan holds a bounded number of them). */
const MAX_COMPILED = 256;

/** The problems of `value` under `schema` (empty: it matches), each `<path>: <what is wrong>`, bounded. */
export function outputProblems(schema: Record<string, unknown>, value: unknown): string[] {
  let validate: ValidateFunction;
  try {
    validate = compile(schema);
  } catch (err) {
    return [`(outputSchema): the schema does not compile: ${(err as Error).message.slice(0, 300)}`];
  }
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, OUTPUT_SCHEMA_LIMITS.problems).map(describe);
}

/** A schema that does not compile, as its problem (`teamrun validate` reports it); null when it compiles. */
export function schemaProblem(schema: Record<string, unknown>): string | null {
  try {
    compile(schema);
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  let validate = compiled.get(text);
  if (!validate) {
    // $id would register the schema in ajv's table: a second plan with the same $id must not collide with the first.
    const { $id: _id, $schema: _schema, ...rest } = schema;
    ajv ??= new (require('ajv') as typeof import('ajv')).Ajv({ allErrors: true, strict: false });
    validate = ajv.compile(rest);
    if (compiled.size >= MAX_COMPILED) compiled.delete(compiled.keys().next().value!);
    compiled.set(text, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  const at = error.instancePath || '(output)';
  const extra =
    error.keyword === 'additionalProperties'
      ? ` ("${String(error.params.additionalProperty)}")`
      : error.keyword === 'enum'
        ? ` (${JSON.stringify(error.params.allowedValues).slice(0, 200)})`
        : '';
  return `${at}: ${error.message ?? error.keyword}${extra}`;
}

/** The attempt's result, or the failure its output's mismatch is. */
export function checkedResult(schema: Record<string, unknown> | undefined, result: ExecutorResult): ExecutorResult {
  if (!schema) return result;
  const problems = outputProblems(schema, result.output);
  if (!problems.length) return result;
  throw new ExecutorError(`the output does not match the task's outputSchema: ${problems.join('; ')}`, {
    nonRetryable: true,
    type: OUTPUT_INVALID,
    ...(result.usage ? { usage: result.usage } : {}),
    ...(result.logs ? { logs: result.logs } : {}),
  });
}
