/**
 * A report of a tree of teams (docs/teams.md): the run's own report, then a section per child run (a team task's
 * attempt), nested under its team task: the text indents it, the HTML gives each child a section with an anchor
 * that the list under the header links to. The child reports are built as any run's (build.ts).
 */
import { escapeXml as esc } from './chart';
import { renderReportHtml } from './html';
import type { RunReport } from './model';
import { renderReportText } from './text';

export interface ChildReport {
  /** The team task in the parent. */
  key: string;
  /** The child run's path (`root/key/key`). */
  path: string;
  report: RunReport;
  children: ChildReport[];
}

/** The anchor of a child run's section: its path, as an HTML id. */
export const childAnchor = (path: string) => `child-${path.replace(/[^A-Za-z0-9._-]/g, '_')}`;

/** The text report, each child's under a heading naming its team task, indented by its level. */
export function renderTreeText(report: RunReport, children: ReadonlyArray<ChildReport>): string {
  const parts = [renderReportText(report)];
  const walk = (child: ChildReport, indent: string) => {
    const body = renderReportText(child.report)
      .split('\n')
      .map((l) => (l ? `${indent}${l}` : l))
      .join('\n');
    parts.push(`${indent}── team task ${child.key}: child run ${child.path} ──\n${body}`);
    for (const c of child.children) walk(c, `${indent}    `);
  };
  for (const c of children) walk(c, '    ');
  return parts.join('\n\n');
}

/** A page's body without its scripts (the root page's own script reads the root's report only). */
function bodyOf(page: string): string {
  const body = /<body[^>]*>([\s\S]*)<\/body>/.exec(page)?.[1] ?? '';
  return body.replace(/<script[\s\S]*?<\/script>/g, '');
}

/** The HTML report with a section per child run (recursively), linked from a list of team tasks under the header. */
export function renderTreeHtml(report: RunReport, children: ReadonlyArray<ChildReport>): string {
  const page = renderReportHtml(report);
  if (!children.length) return page;
  const links: string[] = [];
  const sections: string[] = [];
  const walk = (child: ChildReport, level: number) => {
    const id = childAnchor(child.path);
    links.push(
      `<li style="margin-left:${level * 1.5}em">team task <code>${esc(child.key)}</code> → ` +
        `<a href="#${id}">${esc(child.path)}</a> (${esc(child.report.state)})</li>`,
    );
    sections.push(
      `<section class="child-run" id="${id}" style="margin-left:${level * 1.5}em;border-left:3px solid #ccd;` +
        `padding-left:1em">\n<h2>team task ${esc(child.key)}: child run ${esc(child.path)}</h2>\n` +
        `${bodyOf(renderReportHtml(child.report))}\n</section>`,
    );
    for (const c of child.children) walk(c, level + 1);
  };
  for (const c of children) walk(c, 0);
  const nav = `<nav class="child-runs"><h2>Child runs (team tasks)</h2><ul>${links.join('')}</ul></nav>`;
  return page
    .replace('</header>', `</header>\n${nav}`)
    .replace(/<script type="application\/json"/, (m) => `${sections.join('\n')}\n${m}`);
}
