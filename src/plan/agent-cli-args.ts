import { z } from 'zod';
import type { PlanProblem } from './problem';

/**
 * What a plan may put on a coding-agent CLI's command line: flags the worker's operator lists
 * (`worker.agentClis.<cli>.allowArgs`), each with the values it may take, checked as pairs. A
 * token list is not enough: allowed flags and allowed values recombine (`--allowedTools Bash` out
 * of `[--allowedTools, Read, --disallowedTools, Bash]`). docs/agent-clis.md.
 */
export const AllowedFlagSchema = z
  .object({
    flag: z
      .string()
      .max(200)
      .regex(/^--?[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'must be a flag: -x or --name (no value, no "=")'),
    /** The values the flag may take; leave both `values` and `pattern` out for a flag that takes none. */
    values: z.array(z.string().min(1).max(1_024)).max(256).optional(),
    /** A regular expression the whole value must match (anchored), instead of or beside `values`. */
    pattern: z
      .string()
      .min(1)
      .max(1_024)
      .refine((p) => compiles(p), 'must be a valid regular expression')
      .optional(),
  })
  .strict();
export type AllowedFlag = z.infer<typeof AllowedFlagSchema>;

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

const FLAG = /^--?[A-Za-z0-9]/;

/** A CLI's model: a name, never a flag (gemini read `model: "--yolo"` as `--model --yolo`: yolo mode). */
export const CLI_MODEL = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^-\s]\S*$/, 'must be a model name: no spaces, and not starting with "-" (a CLI reads that as a flag)');

/** A CLI's prompt: never starting with "-", which a CLI's parser could read as a flag. */
export function cliPrompt(maxChars: number) {
  return z
    .string()
    .min(1)
    .max(maxChars)
    .refine((p) => !p.startsWith('-'), 'must not start with "-" (a CLI could read it as a flag)');
}

/**
 * `allowArgs` as written: flag entries, or the earlier list of tokens, read as groups: a flag and
 * the values listed right after it (`[--max-turns, '20', --yolo]`: `--max-turns` takes `20`,
 * `--yolo` none). Read so, a token list allows no more than it did, never a recombination; a list
 * that starts with a value is refused, naming the new shape.
 */
export const AllowArgsSchema = z
  .array(z.union([z.string().min(1).max(1_024), AllowedFlagSchema]))
  .max(256)
  .default([])
  .transform((entries, ctx) => {
    const flags: AllowedFlag[] = [];
    let open: { flag: AllowedFlag; fromTokens: boolean } | undefined;
    entries.forEach((entry, i) => {
      if (typeof entry !== 'string') {
        flags.push(entry);
        open = undefined;
        return;
      }
      const eq = entry.indexOf('=');
      if (FLAG.test(entry) && eq !== -1) {
        flags.push({ flag: entry.slice(0, eq), values: [entry.slice(eq + 1)] });
        open = undefined;
      } else if (FLAG.test(entry)) {
        const flag: AllowedFlag = { flag: entry };
        flags.push(flag);
        open = { flag, fromTokens: true };
      } else if (open?.fromTokens && !entry.startsWith('-')) {
        (open.flag.values ??= []).push(entry);
      } else {
        ctx.addIssue({
          code: 'custom',
          path: [i],
          message:
            `"${entry.slice(0, 100)}" is a value with no flag before it: allowArgs lists flags with ` +
            `the values each may take, e.g. [{ flag: "--allowedTools", values: ["Read", "Grep"] }, ` +
            `{ flag: "--max-turns", pattern: "[0-9]{1,3}" }, { flag: "--verbose" }]`,
        });
      }
    });
    return flags;
  });

/**
 * `allowArgs` as flag entries, whether a config file's parse already read it so or it comes as
 * written (a config object built in code); null with the problem when it cannot be read.
 */
export function allowedFlags(allowArgs: unknown): { flags: AllowedFlag[] } | { problem: string } {
  const parsed = AllowArgsSchema.safeParse(allowArgs);
  if (parsed.success) return { flags: parsed.data };
  return { problem: parsed.error.issues.map((i) => `[${i.path.join('.')}]: ${i.message}`).join('; ') };
}

/** A value that a CLI's parser could read as a flag of its own, or as more than one word. */
export function flagLike(value: string): boolean {
  return value.startsWith('-');
}

/**
 * Checks a plan's `args` against the allowed flags, pairwise: each flag must be listed, a flag
 * with values takes exactly one (`--f v` or `--f=v`) that is listed or matches the pattern, and
 * a flag without values takes none. Returns the problems, each at `<at>[i]`, and the arguments as
 * the CLI gets them (a flag and its value as two tokens).
 */
export function checkCliArgs(
  args: ReadonlyArray<string>,
  allowed: ReadonlyArray<AllowedFlag>,
  at: string,
  where: string,
): { problems: PlanProblem[]; argv: string[] } {
  const problems: PlanProblem[] = [];
  const argv: string[] = [];
  const refuse = (i: number, message: string) =>
    problems.push({ path: `${at}[${i}]`, code: 'agent_cli_arg_refused', message });
  const listed = allowed.map((a) => a.flag).join(', ') || 'none: no extra argument may be passed';
  for (let i = 0; i < args.length; i++) {
    const token = args[i];
    const eq = token.indexOf('=');
    const name = FLAG.test(token) && eq !== -1 ? token.slice(0, eq) : token;
    const entry = allowed.find((a) => a.flag === name);
    if (!FLAG.test(token) || !entry) {
      refuse(i, `"${token.slice(0, 100)}" is not a flag listed in ${where} (${listed})`);
      continue;
    }
    const takesValue = entry.values !== undefined || entry.pattern !== undefined;
    if (!takesValue) {
      if (eq !== -1) refuse(i, `${name} takes no value in ${where}`);
      else argv.push(name);
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = token.slice(eq + 1);
    else if (i + 1 < args.length) value = args[++i];
    if (value === undefined) {
      refuse(i, `${name} needs a value (${where} lists its values)`);
    } else if (flagLike(value)) {
      refuse(i, `${name}: the value "${value.slice(0, 100)}" starts with "-": a CLI would read it as a flag`);
    } else if (!valueAllowed(entry, value)) {
      refuse(i, `${name} "${value.slice(0, 100)}" is not allowed: ${where} gives ${name} ${describe(entry)}`);
    } else {
      argv.push(name, value);
    }
  }
  return { problems, argv };
}

function valueAllowed(entry: AllowedFlag, value: string): boolean {
  if (entry.values?.includes(value)) return true;
  return entry.pattern !== undefined && new RegExp(`^(?:${entry.pattern})$`, 's').test(value);
}

function describe(entry: AllowedFlag): string {
  const parts = [];
  if (entry.values) parts.push(`the values ${entry.values.map((v) => JSON.stringify(v)).join(', ')}`);
  if (entry.pattern !== undefined) parts.push(`values matching /${entry.pattern}/`);
  return parts.join(' or ');
}

/** Every `agent-cli` task of a plan checked against the worker's CLIs, as the worker will check it. */
export function checkPlanCliArgs(
  tasks: ReadonlyArray<{ executor: { kind: string; cli?: unknown; args?: unknown } }>,
  clis: Readonly<Partial<Record<string, { allowArgs: unknown }>>>,
): PlanProblem[] {
  const problems: PlanProblem[] = [];
  tasks.forEach((task, i) => {
    const { kind, cli, args } = task.executor;
    if (kind !== 'agent-cli' || typeof cli !== 'string' || !Array.isArray(args)) return;
    // A CLI this config does not set up is the worker's to refuse (the plan may run elsewhere).
    const config = Object.hasOwn(clis, cli) ? clis[cli] : undefined;
    if (!config) return;
    const allowed = allowedFlags(config.allowArgs);
    const at = `tasks[${i}].executor.args`;
    const where = `worker.agentClis.${cli}.allowArgs`;
    if ('problem' in allowed) problems.push({ path: at, code: 'agent_cli_arg_refused', message: allowed.problem });
    else problems.push(...checkCliArgs(args as string[], allowed.flags, at, where).problems);
  });
  return problems;
}
