import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { teamRunResult, type TeamRunHandle } from '../../src/client';
import type { TeamPlanInput } from '../../src/plan/schema';
import * as msg from '../../src/workflows/messages';
import { teamrun } from '../cli/teamrun-cli';
import { startRun, startTestWorker, uniqueQueue, waitFor, type TestWorker } from '../helpers/env';
import { SCREENSHOTS, countIs, launchBrowser, see, type Browser } from './browser';

/** The outline a targeted timeline row gets (evaluated in the page; this project compiles without DOM types). */
type Styled = { ownerDocument: { defaultView: { getComputedStyle(el: unknown): { outlineStyle: string } } } };
const outlineStyle = (el: unknown) => (el as Styled).ownerDocument.defaultView.getComputedStyle(el).outlineStyle;

/**
 * The parts of `teamrun report --html` an operator coming from Airflow or Prefect looks for:
 * the task graph (titles, status colours, each box linked to its timeline row), what each attempt
 * printed (folded per attempt), the time a human took to decide, links into the Web UI, and the
 * runs x tasks grid of `report --team`.
 */
describe('the report shows the graph, the logs, the human wait and many runs at once', () => {
  let worker: TestWorker;
  let browser: Browser;
  let dir: string;
  const team = uniqueQueue('grid-team');
  const runs: TeamRunHandle[] = [];

  const plan = (failing: boolean): TeamPlanInput => ({
    name: team,
    teammates: 2,
    retry: { maxAttempts: 1 },
    tasks: [
      {
        key: 'build',
        title: 'Build the site',
        executor: {
          kind: 'shell',
          command: 'for i in 1 2 3; do echo "building page $i"; done; echo "warning: 2 images are large" >&2',
        },
      },
      {
        key: 'lint',
        title: 'Lint the sources',
        executor: { kind: 'shell', command: failing ? 'echo "lint: 3 problems" >&2; exit 2' : 'echo "lint: clean"' },
      },
      { key: 'review', title: 'Human review', executor: { kind: 'sleep', ms: 600_000 } },
      { key: 'publish', title: 'Publish the site', dependsOn: ['build', 'lint', 'review'], executor: { kind: 'noop' } },
    ],
  });

  /** Runs the plan; `review` is taken over by an operator and accepted a moment later. */
  const runOnce = async (failing: boolean) => {
    const handle = await startRun(plan(failing), worker.taskQueue);
    const review = await waitFor('review to hold a lease', async () =>
      (await handle.query(msg.activeClaimsQuery)).find((c) => c.key === 'review'),
    );
    await handle.executeUpdate(msg.interruptTaskUpdate, {
      args: [{ key: 'review', fencingToken: review.fencingToken, actor: 'alice', reason: 'check the copy' }],
    });
    await waitFor(
      'review to await adjudication',
      async () => (await handle.query(msg.statusQuery)).state === 'awaiting_adjudication',
    );
    // The human takes a while: the wait is what the timeline draws.
    await new Promise((r) => setTimeout(r, 1_500));
    await handle.executeUpdate(msg.adjudicateUpdate, {
      args: [{ key: 'review', decision: 'accept', decisionId: `ok-${handle.workflowId}`, actor: 'bob' }],
    });
    await teamRunResult(handle);
    runs.push(handle);
    return handle;
  };

  beforeAll(async () => {
    [worker, browser] = await Promise.all([startTestWorker(), launchBrowser()]);
    dir = mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-parts-'));
    await runOnce(true);
    await runOnce(false);
  });
  afterAll(async () => {
    await browser?.close();
    await worker?.stop();
  });

  const openReport = async (args: string[], file: string): Promise<Page> => {
    const written = await teamrun([...args, '--html', file, '--web-ui', inject('uiUrl')]);
    expect(written).toMatchObject({ code: 0, stdout: expect.stringContaining('wrote ') });
    const page = await browser.context.newPage();
    await page.goto(`file://${file}`);
    return page;
  };

  it('draws the task graph with titles and status colours, each task linked to its timeline row', async () => {
    const page = await openReport(['report', runs[0].workflowId], path.join(dir, 'failed-run.html'));
    const graph = page.locator('section#graph svg.graph');
    await see(graph);
    await countIs(graph.locator('g.node'), 4);
    await countIs(graph.locator('path.edge'), 3);
    const node = (key: string) => graph.locator(`g.node[data-task="${key}"]`);
    for (const [key, title, status, fill] of [
      ['build', 'Build the site', 'succeeded', '#e3f5e9'],
      ['lint', 'Lint the sources', 'failed', '#fbe5e5'],
      ['review', 'Human review', 'succeeded', '#e3f5e9'],
      ['publish', 'Publish the site', 'skipped', '#eceef2'],
    ]) {
      expect(await node(key).getAttribute('data-status')).toBe(status);
      expect(await node(key).locator('text.node-title').textContent()).toBe(title);
      expect(await node(key).locator('rect').getAttribute('fill')).toBe(fill);
    }
    // Dependencies left of what waits on them.
    const x = async (key: string) => Number(await node(key).locator('rect').getAttribute('x'));
    expect(await x('publish')).toBeGreaterThan(Math.max(await x('build'), await x('lint'), await x('review')));
    // The timeline names tasks by title too.
    await see(page.locator('#timeline .row[data-task="lint"] .label').getByText('Lint the sources'));
    await page.locator('section#graph').screenshot({ path: path.join(SCREENSHOTS, 'report-graph.png') });

    await node('lint').click();
    expect(new URL(page.url()).hash).toBe('#task-lint');
    const row = page.locator('#task-lint');
    expect(await row.evaluate(outlineStyle)).toBe('solid');
    await browser.screenshot('report-graph-linked-row', { page });
    await page.close();
  });

  it("draws the human's wait on the timeline, and links the run and each attempt to the Web UI", async () => {
    const page = await openReport(['report', runs[0].workflowId], path.join(dir, 'failed-run-2.html'));
    const wait = page.locator('#task-review .wait');
    await countIs(wait, 1);
    expect(await wait.getAttribute('title')).toMatch(
      /^waited for a human \d+(\.\d)?s: TEAM_TASK_HUMAN_INTERRUPTED -> accept by bob$/,
    );
    expect((await wait.boundingBox())!.width).toBeGreaterThan(5);
    await page.locator('section#timeline').screenshot({ path: path.join(SCREENSHOTS, 'report-human-wait.png') });

    // The run and each attempt open in the Web UI: the attempt at its ActivityTaskScheduled event.
    const runLink = page.locator('header a.web-ui');
    expect(await runLink.getAttribute('href')).toMatch(
      new RegExp(`^${inject('uiUrl')}/namespaces/default/workflows/${runs[0].workflowId}/[0-9a-f-]+/history$`),
    );
    const attemptLink = page.locator('tr.attempt[data-activity-id="lint#1"] a.web-ui');
    const href = (await attemptLink.getAttribute('href'))!;
    expect(href).toMatch(/\/history\/events\/\d+$/);
    await page.goto(href);
    await see(page.getByText('Activity Task Scheduled').first(), 60_000);
    await see(page.getByText('lint#1').first());
    await browser.screenshot('report-attempt-in-web-ui', { page });
    await page.close();
  });

  it('shows what each attempt printed, folded under its row', async () => {
    const page = await openReport(['report', runs[0].workflowId], path.join(dir, 'failed-run-3.html'));
    const logs = page.locator('tr.attempt-logs');
    // build and lint are shell steps; review (a sleep) printed nothing and has no logs line.
    await countIs(logs, 2);
    const build = page.locator('tr.attempt-logs[data-activity-id="build#1"]');
    expect(await build.locator('details').getAttribute('open')).toBeNull();
    await build.locator('summary').click();
    await see(build.locator('pre.log.stdout').getByText('building page 3', { exact: false }));
    await see(build.locator('pre.log.stderr').getByText('warning: 2 images are large'));
    const lint = page.locator('tr.attempt-logs[data-activity-id="lint#1"]');
    await lint.locator('summary').click();
    await see(lint.locator('pre.log.stderr').getByText('lint: 3 problems'));
    await build.scrollIntoViewIfNeeded();
    await browser.screenshot('report-logs', { page });

    await page.close();
  });

  it("writes one page for many runs: a runs x tasks grid, each cell linking to its task in that run's report", async () => {
    const file = path.join(dir, 'team.html');
    const page = await openReport(['report', '--team', team, '--since', '1h'], file);
    const rows = page.locator('table.grid tr.run');
    await countIs(rows, 2);
    // Newest first: the run that passed, then the one whose lint failed.
    expect(await rows.nth(0).getAttribute('data-workflow-id')).toBe(runs[1].workflowId);
    expect(await rows.nth(1).getAttribute('data-workflow-id')).toBe(runs[0].workflowId);
    const headers = await page.locator('table.grid th.task-col').allTextContents();
    expect(headers).toEqual(['Build the site', 'Lint the sources', 'Human review', 'Publish the site']);
    const cells = async (i: number) =>
      rows
        .nth(i)
        .locator('td.cell')
        .evaluateAll((tds) => tds.map((td) => td.getAttribute('data-status')));
    expect(await cells(0)).toEqual(['succeeded', 'succeeded', 'succeeded', 'succeeded']);
    expect(await cells(1)).toEqual(['succeeded', 'failed', 'succeeded', 'skipped']);
    await see(rows.nth(1).getByText('failed', { exact: true }));
    await browser.screenshot('report-team-grid', { page });

    await rows.nth(1).locator('td.cell[data-task="lint"] a').click();
    await page.waitForURL(/#task-lint$/);
    await see(page.locator('section#graph svg.graph'));
    expect(await page.locator('#task-lint').evaluate(outlineStyle)).toBe('solid');
    await page.close();
  });

  it("answers the Web UI's Queries tab with readable times beside the epoch milliseconds", async () => {
    const page = await browser.context.newPage();
    await page.goto(`${inject('uiUrl')}/namespaces/default/workflows/${encodeURIComponent(runs[0].workflowId)}`, {
      waitUntil: 'domcontentloaded',
    });
    await page.getByText('Workflow Type').first().waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="queries-tab"]').click();
    await page.locator('[data-testid="query-select-button"]').click();
    await page.locator('#query-select-select').getByText('status', { exact: true }).first().click();
    await page.getByRole('button', { name: 'Run Query' }).click();
    await see(page.getByText('startedAtIso', { exact: false }), 60_000);
    const started = (await runs[0].query(msg.statusQuery)).startedAt;
    await see(page.getByText(new Date(started).toISOString(), { exact: false }));
    await page.getByText('startedAtIso', { exact: false }).first().scrollIntoViewIfNeeded();
    await browser.screenshot('ui-query-iso', { page });
    await page.close();
  });
});
