import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { validatePlan, type PlanValidation } from './validate';

/** Reads a plan file (YAML or JSON; JSON is YAML) and validates it. */
export function loadPlanFile(file: string): PlanValidation & { raw?: unknown } {
  let raw: unknown;
  try {
    raw = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    return {
      ok: false,
      problems: [{ path: file, code: 'unreadable', message: (err as Error).message.split('\n')[0] }],
    };
  }
  return { ...validatePlan(raw), raw };
}
