/**
 * Honest outcomes: what a task's output says of itself. An output object may carry `integration`
 * (`mock`: it ran against a stand-in; `real`: against the real thing; `none`: it integrated with
 * nothing), `artifacts` (paths or URLs it produced), `covers` (the acceptance criteria it meets) and
 * `testsRun` (whether it ran tests: an `agent-cli` attempt sets it from its CLI's stream, a shell
 * task declares it). Read at view time from the output as held, each field within its bound; a
 * field that does not fit is left out, never guessed.
 */
import type { TaskOutcome } from '../contract';

export const OUTCOME_LIMITS = {
  artifacts: 32,
  artifactChars: 512,
  covers: 64,
} as const;

const INTEGRATIONS = new Set(['mock', 'real', 'none']);
/** An acceptance criterion's id: `AC-1`, `login.ok`, `R2:3`. */
const CRITERION = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/;

const strings = (value: unknown, max: number, ok: (s: string) => boolean): string[] | undefined =>
  Array.isArray(value) && value.every((v) => typeof v === 'string' && ok(v)) && value.length <= max
    ? (value as string[])
    : undefined;

/** The outcome an output declares, or undefined when it declares none (or is not an object). */
export function outcomeOf(output: unknown): TaskOutcome | undefined {
  if (typeof output !== 'object' || output === null || Array.isArray(output)) return undefined;
  const o = output as Record<string, unknown>;
  const outcome: TaskOutcome = {};
  if (typeof o.integration === 'string' && INTEGRATIONS.has(o.integration)) {
    outcome.integration = o.integration as TaskOutcome['integration'];
  }
  const artifacts = strings(o.artifacts, OUTCOME_LIMITS.artifacts, (s) => s.length <= OUTCOME_LIMITS.artifactChars);
  if (artifacts) outcome.artifacts = artifacts;
  const covers = strings(o.covers, OUTCOME_LIMITS.covers, (s) => CRITERION.test(s));
  if (covers) outcome.covers = covers;
  if (typeof o.testsRun === 'boolean') outcome.testsRun = o.testsRun;
  return Object.keys(outcome).length ? outcome : undefined;
}

/** One line for a person: `mock · no tests run · covers AC-1, AC-2 · 2 artifact(s)`. */
export function outcomeLine(outcome: TaskOutcome | undefined): string {
  if (!outcome) return '';
  const parts: string[] = [];
  if (outcome.integration) parts.push(outcome.integration === 'none' ? 'no integration' : outcome.integration);
  if (outcome.testsRun !== undefined) parts.push(outcome.testsRun ? 'tests run' : 'no tests run');
  if (outcome.covers?.length) parts.push(`covers ${outcome.covers.join(', ')}`);
  if (outcome.artifacts?.length) parts.push(`${outcome.artifacts.length} artifact(s)`);
  return parts.join(' · ');
}

/** What `teamrun status` shows of a run's outcomes: how many mock, real, none, and which ran no test. */
export interface OutcomeSummary {
  mock: string[];
  real: string[];
  none: string[];
  testsNotRun: string[];
}

/** Keys listed per kind in a summary, at most (its counts are whole). */
const SUMMARY_KEYS = 10;

export function summarizeOutcomes(views: Array<{ key: string; outcome?: TaskOutcome }>): {
  counts: Record<keyof OutcomeSummary, number>;
  keys: OutcomeSummary;
} | null {
  const keys: OutcomeSummary = { mock: [], real: [], none: [], testsNotRun: [] };
  const counts = { mock: 0, real: 0, none: 0, testsNotRun: 0 };
  const add = (kind: keyof OutcomeSummary, key: string) => {
    counts[kind] += 1;
    if (keys[kind].length < SUMMARY_KEYS) keys[kind].push(key);
  };
  for (const { key, outcome } of views) {
    if (outcome?.integration) add(outcome.integration, key);
    if (outcome?.testsRun === false) add('testsNotRun', key);
  }
  return Object.values(counts).some((n) => n > 0) ? { counts, keys } : null;
}
