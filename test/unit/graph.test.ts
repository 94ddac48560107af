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

  describe('added-by and message edges', () => {
    const team: GraphTask[] = [
      { key: 'plan', title: 'Split the work', status: 'succeeded', dependsOn: [] },
      { key: 'review', title: 'Review', status: 'succeeded', dependsOn: ['plan'] },
      { key: 'writer-1', title: 'Part 1', status: 'succeeded', dependsOn: [], parent: 'plan' },
      { key: 'writer-2', title: 'Part 2', status: 'leased', dependsOn: [], parent: 'plan' },
    ];
    const messages = [
      { from: 'review', to: 'writer-1', count: 2 },
      { from: 'writer-2', to: 'coordinator', count: 1 },
    ];

    it('lays an added task right of the task that added it and draws who messaged whom', () => {
      const graph = layoutTaskGraph(team, messages);
      const at = (key: string) => graph.tasks.find((t) => t.key === key)!;
      expect(at('writer-1').stage).toBe(2);
      expect(at('writer-1').x).toBeGreaterThan(at('plan').x);
      expect(graph.edges.map((e) => `${e.kind}:${e.from}->${e.to}`).sort()).toEqual([
        'added:plan->writer-1',
        'added:plan->writer-2',
        'dependency:plan->review',
        'message:review->writer-1',
      ]);
      const message = graph.edges.find((e) => e.kind === 'message')!;
      expect(message.points).toHaveLength(2);
      const svg = graphSvg(graph);
      expect(svg).toContain('class="edge added" data-kind="added" data-from="plan" data-to="writer-1"');
      expect(svg).toContain('data-kind="message" data-from="review" data-to="writer-1"');
      expect(svg).toContain('<title>review messaged writer-1 (2 messages)</title>');
    });

    it('prints them in the terminal and in DOT', () => {
      const text = graphText(team, messages);
      expect(text).toMatch(/writer-1 +Part 1 +\[succeeded\] +\(added by plan\)/);
      expect(text).toMatch(/\nmessages\n {2}└─ review → writer-1 \(2 messages\)$/);
      const dot = graphDot(team, 'team', messages);
      expect(dot).toContain('"plan" -> "writer-2" [style=dashed, label="added"];');
      expect(dot).toContain(
        '"review" -> "writer-1" [style=dotted, color="#2b7bd6", constraint=false, label="2 messages"];',
      );
      expect(dot).not.toContain('coordinator');
    });
  });
});
