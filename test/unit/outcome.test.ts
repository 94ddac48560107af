import { describe, expect, it } from 'vitest';
import { outcomeLine, outcomeOf, summarizeOutcomes } from '../../src/team/outcome';
import { TEST_COMMAND, TestsSeen } from '../../src/activities/executors/agent-cli/tests-run';
import { claudeCode } from '../../src/activities/executors/agent-cli/claude-code';
import { codex } from '../../src/activities/executors/agent-cli/codex';
import { gemini } from '../../src/activities/executors/agent-cli/gemini';
import { renderOverview } from '../../src/cli/render';
import { runOverview } from '../helpers/run-overview';

describe('honest outcomes: what an output declares of itself', () => {
  it('reads integration, artifacts, covers and testsRun, each within its bound', () => {
    const output = { integration: 'mock', artifacts: ['dist/app.js', 'https://ci/1'], covers: ['AC-1', 'AC-2'] };
    expect(outcomeOf({ ...output, testsRun: false, other: 1 })).toEqual({ ...output, testsRun: false });
    expect(outcomeLine(outcomeOf({ ...output, testsRun: false }))).toBe(
      'mock · no tests run · covers AC-1, AC-2 · 2 artifact(s)',
    );
    expect(outcomeOf({ integration: 'real' })).toEqual({ integration: 'real' });
    expect(outcomeLine(outcomeOf({ integration: 'none' }))).toBe('no integration');
  });

  it('leaves out what does not fit, and declares nothing for an output that says nothing', () => {
    expect(outcomeOf('text')).toBeUndefined();
    expect(outcomeOf([1])).toBeUndefined();
    expect(outcomeOf({ content: 'x' })).toBeUndefined();
    expect(outcomeOf({ integration: 'staging' })).toBeUndefined();
    expect(outcomeOf({ artifacts: Array.from({ length: 33 }, (_, i) => `f${i}`) })).toBeUndefined();
    expect(outcomeOf({ artifacts: ['x'.repeat(513)] })).toBeUndefined();
    expect(outcomeOf({ covers: ['has space'] })).toBeUndefined();
    expect(outcomeOf({ testsRun: 'yes' })).toBeUndefined();
  });

  it('teamrun status sums them up: mock tasks and tasks that ran no test by name', () => {
    const summary = summarizeOutcomes([
      { key: 'ui', outcome: { integration: 'mock', testsRun: true } },
      { key: 'api', outcome: { integration: 'real' } },
      { key: 'review', outcome: { testsRun: false } },
      { key: 'plain' },
    ])!;
    expect(summary.counts).toEqual({ mock: 1, real: 1, none: 0, testsNotRun: 1 });
    const overview = runOverview({ outcomes: summary });
    expect(renderOverview(overview, null)).toContain('outcomes mock 1 (ui) · real 1 (api) · ran no test 1 (review)');
    expect(summarizeOutcomes([{ key: 'plain' }])).toBeNull();
  });
});

describe('agent-cli: whether its CLI ran tests, from the stream', () => {
  it('counts a shell call naming a test runner, and nothing else', () => {
    for (const ran of ['npm test', 'npm run test -- x', 'npx vitest run', 'pytest -q', 'go test ./...', 'cargo test']) {
      expect(TEST_COMMAND.test(ran), ran).toBe(true);
    }
    for (const read of ['ls', 'cat test/a.ts', 'grep -r vitest-config .', 'git status', 'npm install', 'latest']) {
      expect(TEST_COMMAND.test(read), read).toBe(false);
    }
  });

  it("reads each CLI's shell command: an analysis that only listed files ran no test", () => {
    const seen = (cli: typeof claudeCode, events: Array<Record<string, unknown>>) => {
      const tests = new TestsSeen();
      const parser = cli.parser();
      for (const e of events)
        for (const ev of parser.parse(e) ?? []) if (ev.kind === 'tool-start') tests.see(ev.command);
      return tests.output();
    };
    const claude = (command: string) => ({
      type: 'assistant',
      message: { id: 'm1', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command } }] },
    });
    expect(seen(claudeCode, [claude('ls')])).toEqual({ testsRun: false });
    expect(seen(claudeCode, [claude('ls'), claude('npm test')])).toEqual({
      testsRun: true,
      testCommands: ['npm test'],
    });
    const codexItem = (command: string) => ({
      type: 'item.started',
      item: { id: 'i1', type: 'command_execution', command },
    });
    expect(seen(codex, [codexItem('bash -lc ls')])).toEqual({ testsRun: false });
    expect(seen(codex, [codexItem('bash -lc "go test ./..."')]).testsRun).toBe(true);
    const geminiTool = (command: string) => ({
      type: 'tool_use',
      tool_name: 'run_shell_command',
      tool_id: 'g1',
      parameters: { command },
    });
    expect(seen(gemini, [geminiTool('ls')])).toEqual({ testsRun: false });
    expect(seen(gemini, [geminiTool('python -m pytest')]).testsRun).toBe(true);
  });
});
