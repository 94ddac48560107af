import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type { Page } from 'playwright-core';
import { teamrun } from '../cli/teamrun-cli';
import { uniqueQueue } from '../helpers/env';
import { startEventfulRun, type EventfulRun } from '../helpers/eventful-run';
import { countIs, launchBrowser, see, type Browser } from './browser';

/**
 * What an operator sees of a team run in the Temporal Web UI and in `teamrun report --html`,
 * checked in a real browser. The run has a lease expiry (crawl#1), an interruption (review#1)
 * and a pending adjudication, and its worker is alive so the UI's queries answer.
 */
describe('the Web UI and the report tell the story of a run', () => {
  let run: EventfulRun;
  let browser: Browser;
  let page: Page;
  const team = uniqueQueue('ui-team');

  beforeAll(async () => {
    [run, browser] = await Promise.all([startEventfulRun(team), launchBrowser()]);
    page = browser.page;
  });
  afterAll(async () => {
    await browser?.close();
    await run?.stop();
  });

  const openRun = async (tab?: string) => {
    await page.goto(`${inject('uiUrl')}/namespaces/default/workflows/${encodeURIComponent(run.handle.workflowId)}`, {
      waitUntil: 'domcontentloaded',
    });
    await page.getByText('Workflow Type').first().waitFor();
    if (tab) await page.locator(`[data-testid="${tab}-tab"]`).click();
  };

  it('shows the run with its activities, one per attempt, each with a readable summary', async () => {
    await openRun();
    await see(page.getByRole('heading', { name: run.handle.workflowId }));
    // An attempt's summary is its task's title (the activity id, `<key>#<token>`, says which attempt).
    for (const summary of ['runTask • Prepare sources', 'runTask • Crawl the docs', 'runTask • Human review']) {
      await see(page.getByText(summary).first());
    }
    // Crawl the docs ran twice: two activities.
    expect(await page.getByText('runTask • Crawl the docs').count()).toBeGreaterThanOrEqual(2);
    await browser.screenshot('ui-run-timeline');
  });

  it('shows the four search attributes', async () => {
    await openRun('search-attributes');
    const panel = page.locator('main');
    for (const line of [
      '"TeamName": "' + team + '"',
      '"TeamRunStatus": "AwaitingAdjudication"',
      '"TeamRunPendingAdjudications": 1',
      '"TeamRunBudgetStopped": false',
    ]) {
      await see(panel.getByText(line, { exact: false }).first());
    }
    await browser.screenshot('ui-search-attributes');
  });

  it('finds the run with the search attributes in the workflow list filter', async () => {
    const query = `TeamName="${team}" AND TeamRunStatus="AwaitingAdjudication" AND TeamRunPendingAdjudications > 0`;
    await page.goto(`${inject('uiUrl')}/namespaces/default/workflows?query=${encodeURIComponent(query)}`, {
      waitUntil: 'domcontentloaded',
    });
    await see(page.getByRole('link', { name: run.handle.workflowId }));
    await browser.screenshot('ui-workflows-filtered');
  });

  it("shows the run's current details: progress, the pending adjudication and how to decide it, the budget", async () => {
    await openRun('user-metadata');
    // The UI renders the markdown in a frame of its own.
    const frame = page.frameLocator('#user-metadata-current-details');
    await see(frame.getByText('adjudication: 1 pending'));
    // Its typography turns "2/3" into a fraction ("2⁄3"); read it back as typed.
    const details = (await frame.locator('body').innerText()).replace(/\u2044/g, '/');
    for (const text of [
      `${team} · awaiting_adjudication`,
      'tasks: 2/3 done (2 succeeded, 0 failed, 0 skipped), 0 running',
      'progress: ▰',
      'adjudication: 1 pending',
      'waiting: review token 1: TEAM_TASK_HUMAN_INTERRUPTED by alice (needs a human look: $5 or $6?)',
      'decide: teamrun adjudicate ',
      ' review --retry (or --accept, --reject), or the adjudicate update',
      'budget: 4 of 10 attempts, 6,500 tokens, $0.11',
    ]) {
      expect(details).toContain(text);
    }
    await browser.screenshot('ui-current-details');
  });

  it('shows every attempt as an activity with id <key>#<token> in the event history', async () => {
    await openRun('history');
    // The rows' titles (with their icon); an expanded row repeats the title without one.
    const scheduled = page.locator('td p:has(svg)').filter({ hasText: /Activity Task Scheduled\s*$/ });
    await countIs(scheduled, 4);
    const ids = new Set<string>();
    for (let i = 0; i < 4; i++) {
      await scheduled.nth(i).click();
      await see(page.getByText('Activity ID'));
      for (const id of await page.getByText(/^(prepare|crawl|review)#\d+$/).allInnerTexts()) ids.add(id.trim());
    }
    expect([...ids].sort()).toEqual(['crawl#1', 'crawl#2', 'prepare#1', 'review#1']);
    await see(page.getByText('Activity Task Timed Out'));
    await page.getByText('Activity ID').last().scrollIntoViewIfNeeded();
    await browser.screenshot('ui-event-history');
  });

  it('lists the queries, signals and updates with their descriptions, ready to send', async () => {
    await openRun('queries');
    await page.locator('[data-testid="query-select-button"]').click();
    const queries = page.locator('#query-select-select');
    for (const [name, description] of [
      ['status', 'Progress, budget and pending adjudications'],
      ['tasks', 'Tasks, paged'],
      ['activeClaims', 'fencing token to interrupt them'],
      ['adjudications', 'Adjudication records'],
      ['budget', 'remaining budget'],
      ['events', 'Run events'],
    ]) {
      await see(queries.getByText(name, { exact: true }));
      await see(queries.getByText(description, { exact: false }));
    }
    await browser.screenshot('ui-queries');

    const offered = async (action: string, select: string, expected: Array<[string, string]>, shot: string) => {
      await openRun();
      await page.getByRole('button', { name: 'More Actions' }).click();
      await page.getByRole('menuitem', { name: action }).click();
      // The UI keeps a hidden copy of each dialog; act on the one on screen.
      await page.locator(`[data-testid="${select}-button"]`).filter({ visible: true }).click();
      const options = page.locator(`#${select}-select`).filter({ visible: true });
      for (const [name, description] of expected) {
        await see(options.getByText(name, { exact: true }));
        await see(options.getByText(description, { exact: false }));
      }
      await browser.screenshot(shot);
    };
    await offered(
      'Send a Signal',
      'signal-select',
      [
        ['interruptTask', 'Take over a running task'],
        ['abortRun', 'Abort the run'],
      ],
      'ui-signals',
    );
    await offered(
      'Send an Update',
      'update-select',
      [
        ['interruptTask', 'Take over a running task and get the verdict'],
        ['abortRun', 'Abort the run and get the number of attempts stopped'],
        ['adjudicate', 'Decide a task awaiting adjudication'],
      ],
      'ui-updates',
    );
  });

  it('opens the report HTML offline, and its filters show tasks, control or budget', async () => {
    await run.accept();
    expect((await run.handle.result()).status).toBe('succeeded');
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'teamrun-ui-report-')), 'report.html');
    expect((await teamrun(['report', run.handle.workflowId, '--html', file])).code).toBe(0);

    // A page of its own, so only what the report itself asks for is counted.
    const report = await browser.context.newPage();
    const requested: string[] = [];
    report.on('request', (request) => requested.push(request.url()));
    await report.goto(`file://${file}`);
    const sections = {
      timeline: report.locator('section#timeline'),
      attempts: report.locator('section#attempts'),
      leases: report.locator('section#leases'),
      control: report.locator('section#control'),
      adjudications: report.locator('section#adjudications'),
      budget: report.locator('section#budget'),
    };
    const visible = async () =>
      Object.fromEntries(
        await Promise.all(Object.entries(sections).map(async ([name, s]) => [name, await s.isVisible()] as const)),
      );
    const all = { timeline: true, attempts: true, leases: true, control: true, adjudications: true, budget: true };
    expect(await visible()).toEqual(all);
    await countIs(report.locator('tr.attempt'), 4);
    await browser.screenshot('report-all', { fullPage: true, page: report });

    await report.getByRole('button', { name: 'Tasks' }).click();
    expect(await visible()).toEqual({
      timeline: true,
      attempts: true,
      leases: false,
      control: false,
      adjudications: false,
      budget: false,
    });
    await browser.screenshot('report-tasks', { fullPage: true, page: report });
    await report.getByRole('button', { name: 'Control' }).click();
    expect(await visible()).toEqual({
      timeline: false,
      attempts: false,
      leases: true,
      control: true,
      adjudications: true,
      budget: false,
    });
    await see(sections.leases.getByText('token 2 at', { exact: false }));
    await see(sections.adjudications.getByText('accept', { exact: true }));
    await browser.screenshot('report-control', { fullPage: true, page: report });
    await report.getByRole('button', { name: 'Budget' }).click();
    expect(await visible()).toEqual({
      timeline: false,
      attempts: false,
      leases: false,
      control: false,
      adjudications: false,
      budget: true,
    });
    await countIs(sections.budget.locator('svg.chart'), 3);
    await browser.screenshot('report-budget', { fullPage: true, page: report });
    // The choice survives a reload (it lives in the URL fragment), and All brings everything back.
    await report.reload();
    expect(await report.getByRole('button', { name: 'Budget' }).getAttribute('aria-pressed')).toBe('true');
    await report.getByRole('button', { name: 'All' }).click();
    expect(await visible()).toEqual(all);

    expect(requested.filter((url) => !url.startsWith('file:'))).toEqual([]);
    await report.close();
  });
});
