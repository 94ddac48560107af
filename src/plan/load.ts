import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { validatePlan, type PlanValidation, type ValidateOptions } from './validate';

/**
 * Reads a plan file (YAML or JSON; JSON is YAML) and validates it. JSON is read as JSON first:
 * the YAML parser takes seconds on a plan of a megabyte.
 */
export function loadPlanFile(file: string, options: ValidateOptions = {}): PlanValidation & { raw?: unknown } {
  let raw: unknown;
  try {
    const text = readFileSync(file, 'utf8');
    raw = /^\s*[{[]/.test(text) ? parseJsonOrYaml(text) : parseYaml(text);
  } catch (err) {
    return {
      ok: false,
      problems: [{ path: file, code: 'unreadable', message: (err as Error).message.split('\n')[0] }],
    };
  }
  return { ...validatePlan(raw, options), raw };
}

function parseJsonOrYaml(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return parseYaml(text);
  }
}
