import { describe, expect, it } from 'vitest';
import { graphDot, graphSvg, graphText, layoutTaskGraph, type GraphTask } from '../../src/report/graph';

const tasks: GraphTask[] = [
  { key: 'fetch', title: 'Fetch the sources', status: 'succeeded', dependsOn: [] },
  { key: 'lint', title: 'Lint', status: 'leased', dependsOn: ['fetch'] },
  { key: 'build', title: 'Build "the" pages', status: 'failed', dependsOn: ['fetch'] },
  { key: 'publish', title: 'Publish <site>', status: 'blocked', dependsOn: ['build', 'lint'] },
];

describe('the task graph', () => {
  it('lays dependencies out left of what waits on them, in stages', () => {
    const graph = layoutTaskGraph(tasks);
    const at = (key: string) => graph.tasks.find((t) => t.key === key)!;
    expect([at('fetch').stage, at('lint').stage, at('build').stage, at('publish').stage]).toEqual([1, 2, 2, 3]);
    expect(at('fetch').x).toBeLessThan(at('lint').x);
    expect(at('lint').x).toBeLessThan(at('publish').x);
    expect(graph.edges.map((e) => `${e.from}->${e.to}`).sort()).toEqual([
      'build->publish',
      'fetch->build',
      'fetch->lint',
      'lint->publish',
    ]);
  });

  it('prints stages for a terminal, each task with its status and what it waits on', () => {
    const text = graphText(tasks);
    expect(text.split('\n')[0]).toBe('stage 1');
    expect(text).toMatch(/└─ ✔ fetch +Fetch the sources +\[succeeded\]/);
    expect(text).toMatch(/stage 3\n {2}└─ · publish +Publish <site> +\[blocked\] +← build, lint/);
  });

  it('writes DOT and SVG with titles escaped and status colours', () => {
    const dot = graphDot(tasks, 'docs');
    expect(dot).toContain(
      '"build" [label="Build \\"the\\" pages\\nbuild · failed", fillcolor="#fbe5e5", color="#d64545"];',
    );
    expect(dot).toContain('"lint" -> "publish";');
    const svg = graphSvg(layoutTaskGraph(tasks), (key) => `#task-${key}`);
    expect(svg).toContain('<text class="node-title"');
    expect(svg).toContain('Publish &lt;site&gt;');
    expect(svg).not.toContain('<site>');
    expect(svg).toContain('<a href="#task-publish">');
    expect(svg.match(/<g class="node"/g)).toHaveLength(4);
  });

  it('ignores a dependency on a task it does not know instead of drawing a dangling box', () => {
    expect(layoutTaskGraph([{ key: 'a', title: 'a', status: null, dependsOn: ['gone'] }]).edges).toEqual([]);
  });
});
