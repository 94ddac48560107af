import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { TeamPlanInput } from '../../src/plan/schema';
import { teamrun } from '../cli/teamrun-cli';
import { runForTest, workerForTest } from '../helpers/scenario';

const declared = (output: Record<string, unknown>) => `echo '::teamrun-output::${JSON.stringify(output)}'`;

describe('honest outcomes', () => {
  it('a mock outcome is shown as mock in status, tasks and the report (text and HTML); a real one as real', async () => {
    const worker = await workerForTest();
    const plan: TeamPlanInput = {
      name: 'outcomes',
      teammates: 2,
      tasks: [
        {
          key: 'payments',
          executor: {
            kind: 'shell',
            command: declared({
              integration: 'mock',
              artifacts: ['reports/payments.xml'],
              covers: ['AC-7'],
              testsRun: false,
            }),
          },
        },
        { key: 'search', executor: { kind: 'shell', command: declared({ integration: 'real', testsRun: true }) } },
      ],
    };
    const handle = await runForTest(plan, worker);
    const result = await handle.result();
    expect(result.status).toBe('succeeded');
    const payments = result.tasks.find((t) => t.key === 'payments')!;
    expect(payments.outcome).toEqual({
      integration: 'mock',
      artifacts: ['reports/payments.xml'],
      covers: ['AC-7'],
      testsRun: false,
    });

    const status = await teamrun(['status', handle.workflowId]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('outcomes mock 1 (payments) · real 1 (search) · ran no test 1 (payments)');

    const tasks = await teamrun(['tasks', handle.workflowId]);
    expect(tasks.stdout).toMatch(/payments\s+succeeded.*\[mock · no tests run · covers AC-7 · 1 artifact\(s\)\]/);
    expect(tasks.stdout).toMatch(/search\s+succeeded.*\[real · tests run\]/);

    const report = await teamrun(['report', handle.workflowId]);
    expect(report.code, report.stderr).toBe(0);
    expect(report.stdout).toContain('outcome: mock · no tests run · covers AC-7 · 1 artifact(s)');
    expect(report.stdout).toContain('artifact: reports/payments.xml');

    const dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-outcomes-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'report.html');
    const html = await teamrun(['report', handle.workflowId, '--html', file]);
    expect(html.code, html.stderr).toBe(0);
    const page = readFileSync(file, 'utf8');
    expect(page).toContain(
      '<small class="task-outcome i-mock">mock · no tests run · covers AC-7 · 1 artifact(s)</small>',
    );
    expect(page).toContain('<code class="artifact">reports/payments.xml</code>');
    expect(page).toContain('<small class="task-outcome i-real">real · tests run</small>');
  });
});
