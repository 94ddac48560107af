/**
 * What `teamrun validate` can tell of outputSchemas before a run: a dependent's `{{outputs.<key>.<field>...}}` that
 * names a field its dependency's outputSchema does not declare (a typo a run would only show as `null`), with a
 * did-you-mean; and, given the worker's compiler, a schema that does not compile. Pure: the workflow runs the first.
 */
import { nearest } from './graph';
import type { PlanProblem } from './problem';

type Schema = Record<string, unknown>;
interface RefTask {
  key: string;
  dependsOn: ReadonlyArray<string>;
  outputSchema?: Schema;
  executor: Record<string, unknown>;
}

const REF = /\{\{\s*outputs\.([A-Za-z0-9._:-]+)\s*\}\}/g;

/** Every `{{outputs....}}` reference in a task's prompt, messages or command. */
function references(executor: Record<string, unknown>): string[] {
  const texts = [executor.prompt, executor.command, executor.body];
  if (Array.isArray(executor.messages))
    for (const m of executor.messages) texts.push((m as { content?: unknown } | null)?.content);
  const out: string[] = [];
  for (const text of texts) if (typeof text === 'string') for (const m of text.matchAll(REF)) out.push(m[1]);
  return out;
}

/** The fields a schema declares at an object level; undefined where it declares none (anything may be there). */
function declared(schema: unknown): Schema | undefined {
  if (!schema || typeof schema !== 'object') return undefined;
  const properties = (schema as Schema).properties;
  return properties && typeof properties === 'object' ? (properties as Schema) : undefined;
}

/**
 * A reference to a field a dependency's outputSchema does not declare, checked level by level while the schema
 * declares `properties` (where it declares none, or the path goes past them, nothing can be said).
 */
export function checkOutputRefs(tasks: ReadonlyArray<RefTask>, compileProblem?: (s: Schema) => string | null) {
  const problems: PlanProblem[] = [];
  const byKey = new Map(tasks.map((t) => [t.key, t]));
  tasks.forEach((task, i) => {
    if (task.outputSchema && compileProblem) {
      const problem = compileProblem(task.outputSchema);
      if (problem)
        problems.push({
          path: `tasks[${i}].outputSchema`,
          code: 'invalid_output_schema',
          message: `not a JSON Schema the worker can use: ${problem}`,
        });
    }
    for (const ref of references(task.executor)) {
      const parts = ref.split('.');
      // Task keys may hold dots: the longest prefix that names a dependency is the key, as the prompt renders it.
      let n = parts.length;
      while (n > 0 && !task.dependsOn.includes(parts.slice(0, n).join('.'))) n--;
      if (n === 0) continue;
      let schema: unknown = byKey.get(parts.slice(0, n).join('.'))?.outputSchema;
      for (const field of parts.slice(n)) {
        const fields = declared(schema);
        if (!fields) break;
        if (!Object.hasOwn(fields, field)) {
          const guess = nearest(field, Object.keys(fields));
          problems.push({
            path: `tasks[${i}].executor`,
            code: 'unknown_output_field',
            message:
              `{{outputs.${ref}}}: the outputSchema of "${parts.slice(0, n).join('.')}" declares no field "${field}"` +
              `${guess ? ` (did you mean "${guess}"?)` : ''}; it declares ${Object.keys(fields).join(', ') || 'none'}`,
          });
          break;
        }
        schema = fields[field];
      }
    }
  });
  return problems;
}
