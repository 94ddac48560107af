import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { planChecks } from '../../src/operator/plan-file';
import { validatePlan } from '../../src/plan/validate';

/** A worker config whose CLIs allow what `allowArgs` says, as teamrun.yaml would give it. */
function configWith(allowArgs: unknown, cli = 'gemini') {
  return configFile({ worker: { agentClis: { [cli]: { command: cli, allowArgs } } } });
}

function configFile(content: unknown) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cli-args-'));
  try {
    const file = path.join(dir, 'teamrun.yaml');
    writeFileSync(file, JSON.stringify(content));
    return loadConfig(file, {});
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function plan(executor: Record<string, unknown>) {
  return {
    name: 'p',
    tasks: [{ key: 'code', executor: { kind: 'agent-cli', cli: 'gemini', prompt: 'go', ...executor } }],
  };
}

function problemsOf(input: unknown, allowArgs: unknown = []) {
  const result = validatePlan(input, planChecks(configWith(allowArgs)));
  return result.ok ? [] : result.problems.map((p) => `${p.path}: ${p.message}`);
}

describe('agent-cli arguments are structures, checked when the plan is validated', () => {
  it('refuses model "--yolo" (gemini would read --model --yolo as yolo mode), and a prompt that starts with "-"', () => {
    expect(problemsOf(plan({ model: '--yolo' }))).toEqual([
      expect.stringMatching(/^tasks\[0\]\.executor\.model: .*not starting with "-"/),
    ]);
    expect(problemsOf(plan({ model: 'gemini-2.5-pro --yolo' }))).toHaveLength(1);
    expect(problemsOf(plan({ prompt: '--yolo' }))).toEqual([
      expect.stringMatching(/^tasks\[0\]\.executor\.prompt: must not start with "-"/),
    ]);
    expect(problemsOf(plan({ model: 'gemini-2.5-pro', prompt: 'list - the files' }))).toEqual([]);
  });

  it('checks args as flag-value pairs: allowed flags and allowed values cannot be recombined', () => {
    // The operator's earlier token list: --allowedTools Read, --disallowedTools Bash.
    const tokens = ['--allowedTools', 'Read', '--disallowedTools', 'Bash'];
    expect(problemsOf(plan({ args: ['--allowedTools', 'Bash'] }), tokens)).toEqual([
      'tasks[0].executor.args[1]: --allowedTools "Bash" is not allowed: ' +
        'worker.agentClis.gemini.allowArgs gives --allowedTools the values "Read"',
    ]);
    expect(problemsOf(plan({ args: ['--allowedTools=Bash'] }), tokens)).toHaveLength(1);
    expect(problemsOf(plan({ args: ['--allowedTools', 'Read', '--disallowedTools', 'Bash'] }), tokens)).toEqual([]);
    expect(problemsOf(plan({ args: ['--allowedTools=Read'] }), tokens)).toEqual([]);
  });

  it('takes the new shape: values, a pattern, or a flag with no value', () => {
    const allow = [{ flag: '--max-turns', pattern: '[0-9]{1,2}' }, { flag: '--yolo' }, { flag: '-m', values: ['a'] }];
    expect(problemsOf(plan({ args: ['--max-turns', '12', '--yolo', '-m', 'a'] }), allow)).toEqual([]);
    expect(problemsOf(plan({ args: ['--max-turns', '123'] }), allow)).toEqual([
      expect.stringContaining('--max-turns "123" is not allowed'),
    ]);
    // A value-less flag takes no value; a value cannot be a flag; a bare word is no flag.
    expect(problemsOf(plan({ args: ['--yolo=true'] }), allow)).toEqual([
      expect.stringContaining('--yolo takes no value'),
    ]);
    expect(problemsOf(plan({ args: ['-m', '--yolo'] }), allow)).toEqual([expect.stringContaining('starts with "-"')]);
    expect(problemsOf(plan({ args: ['--yolo', 'Bash'] }), allow)).toEqual([
      expect.stringContaining('"Bash" is not a flag listed'),
    ]);
    expect(problemsOf(plan({ args: ['--max-turns'] }), allow)).toEqual([expect.stringContaining('needs a value')]);
  });

  it('refuses an allowArgs list that starts with a value, naming the new shape', () => {
    expect(() => configWith(['Read', '--yolo'])).toThrow(
      /allowArgs.*value with no flag before it.*flag: "--allowedTools"/s,
    );
  });

  it('leaves a CLI this config does not set up to the worker that runs the task', () => {
    const result = validatePlan(plan({ args: ['--anything'] }), planChecks(configFile({})));
    expect(result.ok).toBe(true);
  });
});
