import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { RunReport } from '../../src/report';
import { teamrun } from '../cli/teamrun-cli';
import { uniqueQueue } from '../helpers/env';
import { startEventfulRun } from '../helpers/eventful-run';

describe('teamrun report', () => {
  it('tells the story of a run with a lease expiry, an interruption and an adjudication, as HTML and as text', async () => {
    const team = uniqueQueue('report-team');
    const run = await startEventfulRun(team);
    onTestFinished(() => run.stop());
    await run.accept();
    expect((await run.handle.result()).status).toBe('succeeded');
    const id = run.handle.workflowId;

    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-report-')), 'report.html');
    const written = await teamrun(['report', id, '--html', file]);
    expect(written.stderr).toBe('');
    expect(written.stdout).toContain('3 tasks, 4 attempts, 2 control messages');
    const html = readFileSync(file, 'utf8');

    // Every attempt, each with its activity id <key>#<token>.
    const rows = [...html.matchAll(/<tr class="attempt[^"]*" data-activity-id="([^"]+)">(.*?)<\/tr>/g)].map(
      ([, activityId, row]) => ({ activityId, row }),
    );
    expect(rows.map((r) => r.activityId)).toEqual(['prepare#1', 'crawl#1', 'crawl#2', 'review#1']);
    const row = (activityId: string) => rows.find((r) => r.activityId === activityId)!.row;
    expect(row('crawl#1')).toContain('lease-expired');
    expect(row('crawl#1')).toContain(run.worker.identity);
    expect(row('crawl#2')).toContain('succeeded');
    expect(row('crawl#2')).toContain('5,000 tok · $0.09');
    expect(row('review#1')).toContain('interrupted');
    expect(row('review#1')).toContain('by alice');
    // The lease expiry and the re-lease, the interruption and the decision.
    expect(html).toMatch(/<tr class="lease"><td>[^<]+<\/td><td>crawl<\/td><td>token 1 .*?<td>token 2 at/);
    expect(html).toMatch(
      /<tr class="control" data-name="interruptTask">.*?alice.*?interrupt review \(token 1\): needs a human look.*?<td>ok<\/td>/,
    );
    expect(html).toMatch(
      /<tr class="control" data-name="adjudicate">.*?bob.*?accept review \(decision review-accepted\)/,
    );
    expect(html).toMatch(
      /<tr class="adjudication"><td>review<\/td>.*?TEAM_TASK_HUMAN_INTERRUPTED.*?<b>accept<\/b> by bob/,
    );
    // Budget over time, as an inline chart with its limit.
    expect(html).toContain('<svg class="chart"');
    expect(html).toContain('Tokens: 6,500');
    expect(html).toContain('limit 10');
    // One self-contained file: filters present, nothing fetched from anywhere.
    for (const filter of ['all', 'tasks', 'control', 'budget']) expect(html).toContain(`data-filter="${filter}"`);
    // (Links a reader may follow, to the Web UI, are not fetches: without them nothing names a URL.)
    const fetchable = html.replace(/<a [^>]*>/g, '<a>').replace(/<script type="application\/json"[^]*?<\/script>/, '');
    expect(fetchable).not.toMatch(/<(link|img|iframe)\b|\bsrc=|https?:\/\//);
    expect(html).toMatch(/<a class="web-ui" href="http:\/\/localhost:\d+\/namespaces\/default\/workflows\//);
    const data = JSON.parse(
      html.match(/<script type="application\/json" id="teamrun-report">(.*?)<\/script>/s)![1],
    ) as RunReport;
    expect(data.leases).toEqual([
      expect.objectContaining({ key: 'crawl', fencingToken: 1, next: expect.objectContaining({ fencingToken: 2 }) }),
    ]);
    expect(data.budget.used).toEqual({ attempts: 4, tokens: 6_500, usd: 0.11 });

    const text = await teamrun(['report', id]);
    expect(text.stdout).toContain(`run ${id} (team ${team}): succeeded`);
    expect(text.stdout).toMatch(/#1 crawl#1 teammate-\d @\S+ .*: lease-expired/);
    expect(text.stdout).toMatch(/crawl token 1 lease lost .*re-leased as token 2/);
    expect(text.stdout).toMatch(/update adjudicate by bob: accept review/);
    expect(text.stdout).toContain('review token 1: TEAM_TASK_HUMAN_INTERRUPTED');
    expect(text.stdout).toContain('attempts 4 of 10 · tokens 6,500 · $0.11');
  });
});
